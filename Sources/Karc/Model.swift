import Logging

/// The business logic of one domain: a pure ``reducer(state:effect:)`` that
/// is the only way its state changes, and ``scopes(_:_:)`` that say which
/// pipelines, resources and submodels run in each state.
///
/// ```swift
/// @CheckedSendable
/// final class CounterModel: Model<CounterDomain, DefaultId, Counter, Increment, CounterEffect, Counted> {
///     override func reducer(state: Counter, effect: CounterEffect) -> (Counter, [Counted]) { … }
///     @ScopesBuilder
///     override func scopes(_ s: Counter, _ i: Interactor) -> [Scope] { i.main }
/// }
/// try await CounterModel.setUp(.init(environ: Environ()))
/// ```
// Proof for @unchecked: every stored property is a `let` of a Sendable type; subclasses
// restate it through @CheckedSendable, which checks what they add.
open class Model<Domain, Id, State, Command, Effect, Event>: @unchecked Sendable
where
    Domain: Karc.Domain<Id, State, Command, Event>, Id: Hashable & Sendable,
    State: Equatable & Sendable & Initable, Command: Sendable, Effect: Sendable, Event: Sendable
{

    /// How to set a model up: its environ, id and initial state.
    public struct Config: Sendable {
        /// The resources and configs the model runs with.
        public let environ: Environ
        /// The id the model (and its domain) is registered under.
        public let id: Id
        /// The model's initial state.
        public let state: State

        /// A configuration with an explicit id.
        public init(environ: Environ, id: Id, state: State = State()) {
            self.environ = environ
            self.id = id
            self.state = state
        }
    }

    /// `TypeName(id)`, used in logs and errors.
    public let uid: String
    /// The resources and configs the model runs with.
    public let environ: Environ
    /// The id the model is registered under.
    public let id: Id
    /// The model's domain (also found with `Domain.get(id:)`).
    public let domain: Domain

    /// The `uid` of the model with `id`: the type name, with the id unless it is the default one.
    public static func uid(id: Id) -> String {
        id is DefaultId ? "\(Self.self)" : "\(Self.self)(\(id))"
    }

    /// Creates the model and its domain; called by ``setUp(_:)``, not directly.
    public required init(config: Config) {
        uid = Self.uid(id: config.id)
        environ = config.environ
        id = config.id
        domain = Domain(id: config.id, state: config.state)
    }

    /// Whether the model logs through swift-log (label `karc.<Model>`).
    open var loggerEnabled: Bool { false }

    /// The level the model logs at when ``loggerEnabled``.
    open var logLevel: Logger.Level { .info }

    /// The model's logger: silent unless ``loggerEnabled``.
    public var logger: Logger {
        var logger = Logger(label: "karc.\(Self.self)")
        logger.logLevel = loggerEnabled ? logLevel : .critical
        return logger
    }

    /// Reduces one effect to the new state and the events to emit. Must be pure.
    open func reducer(state: State, effect: Effect) -> (State, [Event]) {
        (state, [])
    }

    /// The scopes to run in `state`. Re-evaluated after every change of state.
    @ScopesBuilder
    open func scopes(_ state: State, _ interactor: Interactor) -> [Scope] {}

    /// The error a sender of `command` gets when no running pipe takes it in
    /// `state` (the scope with its pipe runs only in some states), in the
    /// words of the model's domain: "no account is registered", say. Nil,
    /// the default: ``ModelError/notTaken(model:command:)``.
    open func refusal(of command: Command, in state: State) -> (any Error)? { nil }

    /// Called once the initial scopes are running.
    open func onSetUp() {}
    /// Called once every scope has stopped.
    open func onTearDown() {}
    /// Called before `effects` are reduced from `state`.
    open func willReduce(state: State, effects: [Effect]) {}
    /// Called after a reduction produced `state` and `events`.
    open func didReduce(state: State, events: [Event]) {}

    /// A scope that sets this model up as a child while the parent's state calls for it.
    public static func submodel(id: Id, state: State = State()) -> Submodel {
        let key = ScopeKey(kind: "submodel", name: "\(Self.self)", id: "\(id)")
        return Submodel(
            key: key,
            setUp: { environ in try await setUp(Config(environ: environ, id: id, state: state)) },
            tearDown: { await tearDown(id: id) }
        )
    }

    /// Creates the model and its domain, registers them, and starts the scopes
    /// of the initial state; returns when they are running.
    ///
    /// - Throws: ``ModelError/alreadySetUp(model:id:)`` when a model of this
    ///   type is set up with the same id.
    public static func setUp(_ config: Config) async throws {
        let model = Self(config: config)
        let runtime = model.makeRuntime(state: config.state)
        let key = ModelPool.key(Domain.self, config.id)
        let entry = ModelPool.Entry(domain: model.domain) {
            await runtime.tearDown()
            model.onTearDown()
        }
        guard ModelPool.active.insert(key, entry) else {
            throw ModelError.alreadySetUp(model: "\(Self.self)", id: "\(config.id)")
        }
        model.domain.channel.set(
            DomainChannel(
                modelUid: runtime.uid, commands: runtime.commands, events: runtime.events, state: { runtime.state },
                refusal: { runtime.refusal(of: $0) }, restore: { try await runtime.restore($0) }
            ))
        await runtime.start()
        model.onSetUp()
    }

    /// Tears the model with `id` down: pending and later sends fail at once,
    /// every scope stops (this returns when they have), receivers end.
    /// Does nothing when no such model is set up.
    public static func tearDown(id: Id) async {
        guard let entry = ModelPool.active.remove(ModelPool.key(Domain.self, id)) else { return }
        await entry.tearDown()
    }

    func makeRuntime(state: State) -> ModelRuntime<State, Command, Effect, Event> {
        let logger = self.logger
        return ModelRuntime(
            uid: uid, environ: environ, logger: logger, state: state,
            hooks: .init(
                reducer: { [self] in reducer(state: $0, effect: $1) },
                willReduce: { [self] in
                    logger.trace("[\(uid)] will reduce \($1)")
                    willReduce(state: $0, effects: $1)
                },
                didReduce: { [self] in
                    logger.trace("[\(uid)] did reduce to \($1)")
                    didReduce(state: $0, events: $1)
                },
                observe: { [domain] in domain.observe(state: $0) },
                scopes: { [self] runtime, state in
                    let interactor = Interactor(environ: environ, runtime: runtime)
                    // Pipeline factories called from here register their @Inject/@Use declarations.
                    return PipelineBuildContext.collecting {
                        scopes(state, interactor)
                    }
                },
                refusal: { [self] in refusal(of: $0, in: $1) }
            ),
            delivery: (domain as? any MainActorObserver<State>).map { MainActorDelivery(observer: $0) }
        )
    }
}

extension Model.Config where Id == DefaultId {
    /// A configuration with the default id.
    public init(environ: Environ, state: State = State()) {
        self.init(environ: environ, id: .shared, state: state)
    }
}

extension Model where Id == DefaultId {
    /// Tears down the model set up with the default id.
    public static func tearDown() async {
        await tearDown(id: .shared)
    }

    /// A scope that sets this model up (default id) as a child while the parent's state calls for it.
    public static func submodel(state: State = State()) -> Submodel {
        submodel(id: .shared, state: state)
    }
}
