import Compose
import ComposeCombine
import KarcSynchronization
import Testing
import Trellis
import TrellisCombine

// Only the Combine names these tests use: the whole of OpenCombine in scope
// trips Swift Testing's macros.
#if canImport(Combine)
import class Combine.AnyCancellable
import struct Combine.AnyPublisher
import class Combine.Future
import class Combine.PassthroughSubject
import protocol Combine.Publisher
#else
import class OpenCombine.AnyCancellable
import struct OpenCombine.AnyPublisher
import class OpenCombine.Future
import class OpenCombine.PassthroughSubject
import protocol OpenCombine.Publisher
#endif

/// Values a sink collected, from whichever thread it ran on.
final class Collected<Value: Sendable>: Sendable {
    private let values = KarcMutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

struct FetchFailed: Error, Equatable {}
struct Tap: Action {}
struct Taps: Equatable, Sendable { var count = 0 }

@Suite(.timeLimit(.minutes(1))) struct CombineBridgeTests {
    @Test func anEmittersPublisherDeliversWhileSubscribed() {
        let logIn = ValueEmitter<String>()
        let seen = Collected<String>()
        let cancellable = logIn.publisher.sink { seen.append($0) }
        logIn.send("ada")
        logIn.send("grace")
        cancellable.cancel()
        logIn.send("after cancel")
        #expect(seen.all == ["ada", "grace"])
    }

    @Test func theSeedsFutureBecomesAnEmitterOfResults() async {
        // The seed's example: a Future made into a `Result` emitter, observed with `+=`.
        let fetchData = Future<String, any Error> { fulfill in
            fulfill(.success("data"))
        }.eraseToAnyPublisher()
        let failing = Future<String, any Error> { fulfill in
            fulfill(.failure(FetchFailed()))
        }.eraseToAnyPublisher()

        let fetched = Collected<String>()
        let emitter = fetchData.emitter()
        emitter += { result in
            guard let data = try? result.get() else {
                fetched.append("Error when fetching data!")
                return
            }
            fetched.append("Fetched data: \(data)")
        }
        let failed = failing.emitter()
        failed += { result in fetched.append((try? result.get()) ?? "Error when fetching data!") }
        // Fulfilled before anyone observed: each observer still starts with the result.
        #expect(fetched.all == ["Fetched data: data", "Error when fetching data!"])
    }

    @Test func aSubjectsValuesReachTheEmitterForAsLongAsItLives() {
        let subject = PassthroughSubject<Int, Never>()
        let seen = Collected<Int>()
        var emitter: PublisherEmitter<Int>? = subject.emitter()
        let token = emitter?.observe { seen.append($0) }
        subject.send(1)
        subject.send(2)
        emitter = nil  // releases the publisher's subscription
        subject.send(3)
        #expect(seen.all == [1, 2])
        token?.cancel()
    }

    @Test func aSendAsAFutureRepliesOrFails() async throws {
        let cluster = try await Bootstrap {
            Store(model: Taps.self).mutate(on: Tap.self) { taps, _, _ in taps.count += 1 }.with(model: Taps()).named("taps")
        }
        let (outcomes, outcome) = AsyncStream.makeStream(of: String.self)
        let tapped = cluster.sendFuture(action: Tap()).sink(
            receiveCompletion: { completion in if case .finished = completion { outcome.yield("tapped") } },
            receiveValue: { _ in })
        let unknown = cluster.sendFuture(action: "no such action").sink(
            receiveCompletion: { completion in if case .failure(let error) = completion { outcome.yield("\(error)") } },
            receiveValue: { _ in })
        var seen: Set<String> = []
        for await next in outcomes {
            seen.insert(next)
            if seen.count == 2 { break }
        }
        #expect(seen == ["tapped", "no service accepts actions of type String"])
        tapped.cancel()
        unknown.cancel()
        #expect(await cluster.target(named: "taps")?.state?() as? Taps == Taps(count: 1))
        await cluster.shutDown()
    }

    @Test func aClustersRecordsArePublishedUntilItShutsDown() async throws {
        let cluster = try await Bootstrap {
            Store(model: Taps.self).mutate(on: Tap.self) { taps, _, _ in taps.count += 1 }.with(model: Taps()).named("taps")
        }
        let kinds = Collected<String>()
        let finished = KarcMutex(false)
        let cancellable = cluster.recordsPublisher().sink(
            receiveCompletion: { _ in finished.withLock { $0 = true } },
            receiveValue: { record in
                switch record.kind {
                case .sent: kinds.append("sent")
                case .stateChanged(let source, _, let new): kinds.append("\(source): \(new)")
                default: break
                }
            })
        try await cluster.send(action: Tap())
        await cluster.shutDown()
        while !finished.withLock({ $0 }) { await Task.yield() }
        #expect(kinds.all == ["sent", "taps: Taps(count: 1)"])
        cancellable.cancel()
    }
}
