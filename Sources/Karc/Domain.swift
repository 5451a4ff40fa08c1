import KarcAsync
import KarcSynchronization

/// The entry point to a model from outside (a view layer, a test, the shell):
/// send commands, read state, receive events.
///
/// Subclass it to expose observable properties, and mark the subclass
/// ``CheckedSendable()`` so the compiler checks it is safe to share. Either
/// keep the properties in ``Observed`` wrappers, written in
/// ``observe(state:)`` (inline, right after each reduction) and read from
/// any task under the wrapper's lock:
///
/// ```swift
/// @CheckedSendable
/// final class TestDomain: Domain<DefaultId, TestState, TestCommand, TestEvent> {
///     @Observed private(set) var account: Account?
///     override func observe(state: TestState) { account = state.account }
/// }
/// ```
///
/// or, for UI code, isolate them to the main actor and receive the states
/// there (``MainActorObserver``; works with `@Observable`):
///
/// ```swift
/// @Observable @CheckedSendable
/// final class TestDomain: Domain<DefaultId, TestState, TestCommand, TestEvent>, MainActorObserver {
///     @MainActor private(set) var account: Account?
///     @MainActor func observe(state: TestState) async { account = state.account }
/// }
/// ```
///
/// (The seed's plain `private(set) var` written in `observe(state:)` races
/// with any reader on another task; `@CheckedSendable` refuses it.)
// Proof for @unchecked: the base class's stored properties are `let`s of Sendable types.
// Subclasses restate it through @CheckedSendable, which checks what they add.
open class Domain<Id: Hashable & Sendable, State: Equatable & Sendable, Command: Sendable, Event: Sendable>: @unchecked Sendable {
    /// The model's id: the key `Domain.get(id:)` finds it by.
    public let id: Id
    let initialState: State
    let channel = Locked<DomainChannel<State, Command, Event>?>(nil)

    /// Creates the domain; called by the model's `setUp`, not directly.
    public required init(id: Id, state: State) {
        self.id = id
        self.initialState = state
    }

    /// Receives each new state, serially, right after the reduction that made it.
    /// Override to copy the public part of the state into properties.
    open func observe(state: State) {}

    /// The model's current state (the initial state for a domain that is not set up).
    public var state: State {
        get async { channel.value?.state() ?? initialState }
    }

    /// Sends a command to the model's pipes and returns the answer: the track's
    /// output for a duplex pipe, `()` for a simplex pipe.
    ///
    /// Throws at once when the model is not set up or torn down, when no pipe
    /// takes this command type, or when every pipe that takes it is busy.
    @discardableResult
    public final func send(_ command: Command) async throws -> any Sendable {
        do {
            return try await requireCommands().send(command)
        } catch GateError.noConsumer {
            throw refusal(of: command)
        }
    }

    /// Sends a command in a new task; the task's value is the answer, or `nil` on error.
    @discardableResult
    public final func sendDetached(priority: TaskPriority? = nil, _ command: Command) -> Task<(any Sendable)?, Never> {
        Task(priority: priority) { try? await self.send(command) }
    }

    /// The next event the model emits.
    public final func receive() async throws -> Event {
        try await nextEvent(Event.self)
    }

    /// The next event of type `SubEvent` the model emits.
    public final func receive<SubEvent: Sendable>() async throws -> SubEvent {
        try await nextEvent(SubEvent.self)
    }

    /// Every event the model emits from now on, in emission order, until it is torn down.
    public func receiver() -> AsyncThrowingStream<Event, any Error> {
        guard let channel = channel.value else { return failing(notSetUp) }
        return channel.events.receiver()
    }

    /// Every event of type `SubEvent` the model emits from now on.
    public func receiver<SubEvent: Sendable>() -> AsyncThrowingStream<SubEvent, any Error> {
        guard let channel = channel.value else { return failing(notSetUp) }
        return channel.events.receiver()
    }

    /// The command drain: `send` through it is ``send(_:)``.
    public final var commandDrain: some Drain<Command, any Sendable> { DomainCommandDrain(domain: self) }

    /// The event source: consumers of it receive every event.
    public final var eventSource: some Source<Event, Void> { DomainEventSource(domain: self) }

    var notSetUp: ModelError { .notSetUp(domain: "\(Self.self)", id: "\(id)") }

    /// Puts `state` in place of the model's state, as a reduction would
    /// (scopes re-evaluated, observers told): what a cluster's restore does.
    package func restore(state: State) async throws {
        try await requireChannel().restore(state)
    }

    /// The model's words for a command no running pipe takes (``Model/refusal(of:in:)``),
    /// looked up only then: a send's fast path holds the gate alone.
    func refusal(of command: Command) -> any Error {
        channel.value?.refusal(command) ?? notSetUp
    }

    /// The command gate alone: read on every send, without copying the rest of the channel.
    func requireCommands() throws -> Gate<Command, any Sendable> {
        guard let commands = channel.withLock({ $0?.commands }) else { throw notSetUp }
        return commands
    }

    func requireChannel() throws -> DomainChannel<State, Command, Event> {
        guard let channel = channel.value else { throw notSetUp }
        return channel
    }

    private func nextEvent<SubEvent: Sendable>(_: SubEvent.Type) async throws -> SubEvent {
        let channel = try requireChannel()
        do {
            return try await channel.events.receive(consumerId: GateIdentifier.next(), instantOutput: ())
        } catch is SourceEnded {
            throw ModelError.tornDown(model: channel.modelUid)
        }
    }

    private func failing<T>(_ error: any Error) -> AsyncThrowingStream<T, any Error> {
        AsyncThrowingStream { throw error }
    }
}

extension Domain {
    /// The domain of the model set up with `id`.
    public static func get(id: Id) async throws -> Self {
        guard let domain = ModelPool.active.domain(ModelPool.key(Self.self, id)) as? Self else {
            throw ModelError.notSetUp(domain: "\(Self.self)", id: "\(id)")
        }
        return domain
    }

    /// The domain of the model set up with `id`, or `nil`.
    public static func getOrNil(id: Id) async -> Self? {
        ModelPool.active.domain(ModelPool.key(Self.self, id)) as? Self
    }
}

extension Domain where State: Initable {
    /// The domain of the model set up with `id`, or a detached one with the
    /// empty state whose sends fail with ``ModelError/notSetUp(domain:id:)``.
    public static func getOrDefault(id: Id) async -> Self {
        await getOrNil(id: id) ?? Self(id: id, state: State())
    }
}

extension Domain where Id == DefaultId {
    /// The domain of the model set up with the default id.
    public static var get: Self { get async throws { try await get(id: .shared) } }
    /// The domain of the model set up with the default id, or nil when there is none.
    public static var getOrNil: Self? { get async { await getOrNil(id: .shared) } }
}

extension Domain where Id == DefaultId, State: Initable {
    /// The domain of the model set up with the default id, or a detached one whose sends fail.
    public static var getOrDefault: Self { get async { await getOrDefault(id: .shared) } }
}

/// What a domain reaches of its model's runtime (effects stay inside the model).
struct DomainChannel<State: Sendable, Command: Sendable, Event: Sendable>: Sendable {
    let modelUid: String
    let commands: Gate<Command, any Sendable>
    let events: EventGate<Event>
    let state: @Sendable () -> State
    /// The error for a command no running pipe takes (``Model/refusal(of:in:)``).
    let refusal: @Sendable (Command) -> any Error
    /// Puts a state in place of the model's (``ModelRuntime/restore(_:)``).
    let restore: @Sendable (State) async throws -> Void
}

struct DomainCommandDrain<Id: Hashable & Sendable, State: Equatable & Sendable, Command: Sendable, Event: Sendable>: Drain {
    let domain: Domain<Id, State, Command, Event>
    var isSealed: Bool { domain.channel.value?.commands.isSealed ?? true }

    nonisolated(nonsending) func send(producerId: UInt64, _ command: Command) async throws -> any Sendable {
        do {
            return try await domain.requireCommands().send(producerId: producerId, command)
        } catch GateError.noConsumer {
            throw domain.refusal(of: command)
        }
    }
}

struct DomainEventSource<Id: Hashable & Sendable, State: Equatable & Sendable, Command: Sendable, Event: Sendable>: Source {
    let domain: Domain<Id, State, Command, Event>
    var isSealed: Bool { domain.channel.value?.events.isSealed ?? true }

    func makeConsumer(consumerId: UInt64, spec: Spec<Event>, instantOutput: Void?) -> SourceConsumer<Event, Void> {
        guard let events = domain.channel.value?.events else {
            let error = domain.notSetUp
            return SourceConsumer(next: { throw error }, reply: { _, _ in }, detach: {})
        }
        return events.makeConsumer(consumerId: consumerId, spec: spec, instantOutput: instantOutput)
    }
}
