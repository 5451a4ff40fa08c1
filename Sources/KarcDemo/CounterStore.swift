import AsyncDispatcher
import KarcCommand
import Trellis

/// `counter`: the AsyncDispatcher seed's CounterStore. Its actions run one at
/// a time, in order; `increment-by-three` is composed of three increments.
public actor CounterStore: Dispatcher, StatefulModel {
    public let pipeline = Pipeline()
    public var middlewares: [any AsyncDispatcher.Middleware] = []

    public struct State: Equatable, Sendable, Codable {
        public var count = 0
    }

    public private(set) var state = State()

    public init() {}

    /// Adds to the count.
    @Command
    public struct Increment: AsyncDispatcher.Action, Codable {
        /// How much to add.
        public var value = 1

        public init(value: Int = 1) { self.value = value }

        public func execute(with store: isolated CounterStore) async {
            store.state.count += value
        }
    }

    /// `counter.increment-by-three`: three `Increment`s, run inside this action.
    public struct IncrementByThree: AsyncDispatcher.Action, Codable {
        public init() {}

        public func execute(with store: isolated CounterStore) async throws {
            for _ in 0..<3 { try await store.execute(Increment()) }
        }
    }

    /// `counter.reset`
    public struct Reset: AsyncDispatcher.Action, Codable {
        public init() {}

        public func execute(with store: isolated CounterStore) async {
            store.state.count = 0
        }
    }
}
