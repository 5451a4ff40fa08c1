infix operator !+= : AssignmentPrecedence
infix operator ~+= : AssignmentPrecedence

/// Something that emits values to the closures observing it.
///
/// The roots are ``ValueEmitter`` and ``SignalEmitter``; every operator
/// (`map`, `filter`, `debounce`, …, under ``Emitters``) returns another
/// emitter that derives its values from its upstream when it is observed.
///
/// Observe with `+=` (every value, for as long as the root emitter lives),
/// `!+=` (the first value only), or `observe(handler:)`, which returns an
/// ``ObservationToken`` that stops the observation when released.
///
/// Emitters are `Sendable`: send and observe from any task. A root emitter
/// delivers its values one at a time, in send order (see ``ValueEmitter``).
public protocol Emitter<Value>: Sendable {
    /// What the emitter emits.
    associatedtype Value: Sendable

    /// Starts delivering values to `handler`; the returned subscription stops it.
    ///
    /// Dropping the subscription does *not* stop the observation (that is what
    /// `+=` relies on); `observe(handler:)` wraps it in a token that does.
    func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription
}

extension Emitter {
    /// Observes every value until the returned token is cancelled or released.
    public func observe(handler: @escaping @Sendable (Value) -> Void) -> ObservationToken {
        ObservationToken(subscribe(handler))
    }

    /// Observes every value: in a component's `observers`, while the
    /// component is active; elsewhere, for as long as the root emitter lives.
    public static func += (emitter: Self, handler: @escaping @Sendable (Value) -> Void) {
        emitter.keep(emitter.subscribe(handler))
    }

    /// Observes the first value only, then stops observing (or when the component becomes inactive).
    public static func !+= (emitter: Self, handler: @escaping @Sendable (Value) -> Void) {
        emitter.keep(emitter.once().subscribe(handler))
    }

    /// The seed's `logIn.openSignUp { … }`: the same as `+=`.
    public func callAsFunction(_ handler: @escaping @Sendable (Value) -> Void) {
        keep(subscribe(handler))
    }

    /// Hands `subscription` to the component whose `observers` are running, if any.
    func keep(_ subscription: Subscription) {
        ComponentScope.current?.keep(subscription)
    }
}

extension Emitter where Value == Void {
    /// Observes every signal until the returned token is cancelled or released.
    public func observe(handler: @escaping @Sendable () -> Void) -> ObservationToken {
        ObservationToken(subscribe { _ in handler() })
    }

    /// Observes every signal: in a component's `observers`, while the
    /// component is active; elsewhere, for as long as the root emitter lives.
    public static func += (emitter: Self, handler: @escaping @Sendable () -> Void) {
        emitter.keep(emitter.subscribe { _ in handler() })
    }

    /// Observes the first signal only, then stops observing (or when the component becomes inactive).
    public static func !+= (emitter: Self, handler: @escaping @Sendable () -> Void) {
        emitter.keep(emitter.once().subscribe { _ in handler() })
    }

    /// The seed's `logIn.openSignUp { … }`: the same as `+=`.
    public func callAsFunction(_ handler: @escaping @Sendable () -> Void) {
        keep(subscribe { _ in handler() })
    }
}

/// Namespace of the emitters that operators return (`Emitters.Debounce`, …).
public enum Emitters {}
