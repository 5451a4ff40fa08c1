import KarcAsync
import Testing
import Trellis

/// Opens once; whoever waits before then waits until it does.
actor Door {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func pass() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}

struct Knock: Action {}
struct Steps: Equatable, Sendable { var taken = 0 }

/// `.concurrent()` under `.serial()`: the services under it run at once again.
@Suite(.timeLimit(.minutes(1))) struct ConcurrentModifierTests {
    @Test func concurrentInsideSerialRunsItsServicesAtOnce() async throws {
        let door = Door()
        let order = Recorder<String>()
        let cluster = try await Bootstrap {
            Group {
                Group {
                    // The first waits for the second: run one after another, this would never end.
                    Store(model: Steps.self).mutate(on: Knock.self) { steps, _, _ in
                        await door.pass()
                        order.append("waited")
                        steps.taken += 1
                    }
                    .named("waiting")
                    Store(model: Steps.self).mutate(on: Knock.self) { steps, _, _ in
                        order.append("opened")
                        await door.open()
                        steps.taken += 1
                    }
                    .named("opening")
                }
                .concurrent()
                Store(model: Steps.self).mutate(on: Knock.self) { steps, _, _ in
                    order.append("after")  // serial: after the concurrent group is done
                    steps.taken += 1
                }
                .named("after")
            }
            .serial()
            .with(model: Steps())
        }
        try await cluster.send(action: Knock())
        #expect(order.all == ["opened", "waited", "after"])
        await cluster.shutDown()
    }
}
