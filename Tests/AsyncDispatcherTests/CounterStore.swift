// The seed README's CounterStore, with the mechanical changes of docs/porting.md:
// an actor, `let pipeline`, no stored `isDispatching` (the protocol provides it),
// `isolated` stores in `execute`.
import AsyncDispatcher
import KarcSynchronization
import Synchronization

@testable import AsyncDispatcher

actor CounterStore: Dispatcher {
    let pipeline = Pipeline()
    var middlewares = [] as [Middleware]

    // The state
    var count: Int = 0

    /// What ran, in order, for the ordering tests.
    var log: [String] = []
    /// Actions running now; never above one for dispatched actions.
    var running = 0
    var maxRunning = 0

    func use(_ middlewares: [any Middleware]) { self.middlewares = middlewares }
}

extension CounterStore {
    struct Increment: Action {
        var value: Int = 1

        func execute(with store: isolated CounterStore) async {
            store.count += value
        }
    }

    struct IncrementByThree: Action {
        func execute(with store: isolated CounterStore) async {
            try? await store.execute(Increment())
            try? await store.execute(Increment())
            try? await store.execute(Increment())
        }
    }

    /// Suspends mid-way, so a second action could overlap it if the pipeline let it.
    struct Slow: Action {
        let name: String

        func execute(with store: isolated CounterStore) async {
            store.running += 1
            store.maxRunning = max(store.maxRunning, store.running)
            store.log.append("\(name) start")
            for _ in 0..<3 { await Task.yield() }
            store.log.append("\(name) end")
            store.running -= 1
        }
    }

    struct Fail: Action {
        struct Refused: Error, Equatable {}

        func execute(with store: isolated CounterStore) async throws {
            store.log.append("fail")
            throw Refused()
        }
    }

    /// Awaits a dispatch to its own dispatcher: it would wait for itself.
    struct DispatchInside: Action {
        func execute(with store: isolated CounterStore) async throws {
            try await store.dispatch(Increment())
        }
    }
}

/// Records the middleware calls as `tag:call:Action`.
final class RecordingMiddleware: Middleware {
    let tag: String
    let allows: @Sendable (Any) -> Bool
    let calls: KarcMutex<[String]>

    init(_ tag: String, allows: @escaping @Sendable (Any) -> Bool = { _ in true }) {
        self.tag = tag
        self.allows = allows
        self.calls = KarcMutex([])
    }

    var recorded: [String] { calls.withLock { $0 } }

    private func record(_ call: String, _ action: Any) {
        calls.withLock { $0.append("\(tag):\(call):\(type(of: action))") }
    }

    func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, shouldExecute action: Action) -> Bool {
        record("should", action)
        return allows(action)
    }

    func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, willExecute action: Action) { record("will", action) }
    func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, didExecute action: Action) { record("did", action) }
    func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, didFail action: Action, error: any Error) {
        record("failed", action)
    }
}
