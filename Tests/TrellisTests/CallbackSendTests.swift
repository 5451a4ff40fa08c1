import KarcAsync
import Testing
import Trellis

/// `cluster.send(action:completion:)`: legacy code that cannot await gets
/// its reply in a callback, and its sends keep the order of its calls.
@Suite(.timeLimit(.minutes(1))) struct CallbackSendTests {
    @Test func callbackSendsRunInCallOrderAndReportTheirErrors() async throws {
        let seen = Recorder<String>()
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { tally, action, _ in
                    switch action {
                    case .add(let n):
                        seen.append("add \(n)")
                        tally.total += n
                    case .fail: throw Boom()
                    case .recover: break
                    }
                }
                .with(model: Tally())
                .named("tally")
        }
        let outcomes = Recorder<String>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for n in 1...20 {
                cluster.send(action: CounterAction.add(n)) { result in outcomes.append(result.failure.map { "\($0)" } ?? "ok") }
            }
            cluster.send(action: CounterAction.fail) { result in
                outcomes.append(result.failure.map { "\($0)" } ?? "ok")
            }
            cluster.send(action: "not an action of this cluster") { result in
                outcomes.append(result.failure.map { "\($0)" } ?? "ok")
                done.resume()
            }
        }
        #expect(seen.all == (1...20).map { "add \($0)" })
        #expect(outcomes.all == Array(repeating: "ok", count: 20) + ["boom", "no service accepts actions of type String"])
        await cluster.shutDown()
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
