/// A state a ``Store`` can hold: comparable (so only real changes are
/// delivered) and constructible with every property at its default.
public protocol AnyState: Equatable, Sendable {
    /// The initial state.
    init()
}
