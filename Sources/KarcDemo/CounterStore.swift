import AsyncDispatcher
import KarcCommand
import Trellis

/// `counter`: the AsyncDispatcher seed's CounterStore. Its actions run one at
/// a time, in order; `increment-by-three` is composed of three increments.
package actor CounterStore: Dispatcher, StatefulModel, ResettableModel, Restorable {
    package let pipeline = Pipeline()
    package var middlewares: [any AsyncDispatcher.Middleware] = []

    @Memberwise
    package struct State: Equatable, Sendable, Codable {
        package var count = 0
    }

    package private(set) var state = State()

    package init() {}

    /// Back to zero, for the cluster's reset (`:reset`).
    package func reset() async {
        state = State()
    }

    /// A count it showed before, for `:restore` and `:undo`.
    package func restore(_ state: State) {
        self.state = state
    }

    /// Adds to the count.
    @Command
    package struct Increment: AsyncDispatcher.Action, Codable {
        /// How much to add.
        package var value = 1

        package init(value: Int = 1) { self.value = value }

        package func execute(with store: isolated CounterStore) async throws {
            // Refused, not trapped: `karc explore` found `count += value` crashing the process at Int.max
            // (scripts/explore/counter-overflow.karc keeps that sequence as a regression test).
            let (sum, overflow) = store.state.count.addingReportingOverflow(value)
            if overflow { throw CounterOverflow(count: store.state.count, value: value) }
            store.state.count = sum
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

/// An increment that would take the count past `Int.min` or `Int.max`.
package struct CounterOverflow: Error, CustomStringConvertible {
    package let count: Int
    package let value: Int
    package var description: String { "the count \(count) cannot take \(value) more: it would pass \(value > 0 ? "Int.max" : "Int.min")" }
}
