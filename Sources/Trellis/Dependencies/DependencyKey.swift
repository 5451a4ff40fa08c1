/// A key for a value of ``DependencyRepository``, read with ``Dependency``
/// (the classic seed's dependency injection).
///
/// ```swift
/// private struct GatekeeperStateKey: DependencyKey {
///     static let value = GatekeeperState()  // an actor: shared, and safe to share
/// }
/// ```
public protocol DependencyKey {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The value when no scope overrides it.
    static var value: Value { get }
}
