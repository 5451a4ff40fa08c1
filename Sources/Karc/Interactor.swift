import KarcAsync

extension Model {
    /// A model's pipelines talk to it through its interactor: define pipeline
    /// factories in an extension of `YourModel.Interactor`.
    public struct Interactor: Sendable {
        /// The environ the model was set up with; pass it to `@Inject` and `@Use`.
        public let environ: Environ
        @usableFromInline let runtime: ModelRuntime<State, Command, Effect, Event>

        init(environ: Environ, runtime: ModelRuntime<State, Command, Effect, Event>) {
            self.environ = environ
            self.runtime = runtime
        }

        /// The model's current state.
        public var state: State {
            get async { runtime.state }
        }

        /// Where the model's commands arrive; pipes take commands from it.
        public var commandSource: some Source<Command, any Sendable> { runtime.commands }

        /// Sends commands to the model itself (what `Domain.send` does).
        public var commandDrain: some Drain<Command, any Sendable> { runtime.commands }

        /// Reduces effects inline and answers with the events the reducer emitted.
        // Inlinable: the concrete drain is visible to the caller, so the reduction specializes there.
        @inlinable
        public var effectDrain: some Drain<[Effect], [Event]> { ReducerDrain(runtime: runtime) }

        /// Every event the model emits; pipes may react to them.
        public var eventSource: some Source<Event, Void> { runtime.events }

        /// Reduces `effects` in order and returns the events they emitted.
        @inlinable @discardableResult
        nonisolated(nonsending) public func sendEffects(_ effects: Effect...) async throws -> [Event] {
            try await runtime.send(effects: effects)
        }
    }
}
