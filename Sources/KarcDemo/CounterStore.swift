import AsyncDispatcher
import KarcCommand
import Trellis

/// `counter`: the AsyncDispatcher seed's CounterStore. Its actions run one at
/// a time, in order; `increment-by-three` is composed of three increments.
package actor CounterStore: Dispatcher, StatefulModel {
    package let pipeline = Pipeline()
    package var middlewares: [any AsyncDispatcher.Middleware] = []

    package struct State: Equatable, Sendable, Codable {
        package var count = 0
    }

    package private(set) var state = State()

    package init() {}

    /// Adds to the count.
    @Command
    package struct Increment: AsyncDispatcher.Action, Codable {
        /// How much to add.
        package var value = 1

        package init(value: Int = 1) { self.value = value }

        package func execute(with store: isolated CounterStore) async {
            store.state.count += value
        }
    }

    /// Adds three, as three increments run inside this action.
    @Command
    package struct IncrementByThree: AsyncDispatcher.Action, Codable {
        package init() {}

        package func execute(with store: isolated CounterStore) async throws {
            for _ in 0..<3 { try await store.execute(Increment()) }
        }
    }

    /// Sets the count back to zero.
    @Command
    package struct Reset: AsyncDispatcher.Action, Codable {
        package init() {}

        package func execute(with store: isolated CounterStore) async {
            store.state.count = 0
        }
    }
}
