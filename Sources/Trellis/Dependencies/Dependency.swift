/// Reads a value of the current ``DependencyRepository``, as the classic
/// seed's `@Dependency(\.gatekeeperState) var state` does.
///
/// The value is read on each access, from the task that reads it: a
/// middleware or service sees the overrides of the scope its action was sent
/// from (``DependencyRepository/withValues(_:operation:isolation:)``).
///
/// ```swift
/// struct GatekeeperMiddleware: Middleware {
///     @Dependency(\.gatekeeperState) var state
///     func pre(action: UserAction) async throws -> Rewrite<UserAction> {
///         await state.user == .unauthenticated ? .redirect(to: .single(action: .noop)) : .none
///     }
/// }
/// ```
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
    private let keyPath: KeyPath<DependencyRepository, Value> & Sendable

    /// Reads the dependency at `keyPath`.
    public init(_ keyPath: KeyPath<DependencyRepository, Value> & Sendable) {
        self.keyPath = keyPath
    }

    /// The dependency now, in this task.
    public var wrappedValue: Value {
        DependencyRepository.current[keyPath: keyPath]
    }
}
