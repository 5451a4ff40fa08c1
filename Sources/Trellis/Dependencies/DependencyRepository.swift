/// The dependencies code reads with ``Dependency``: each key's `value`,
/// unless a scope (``withValues(_:operation:)``) overrides it.
///
/// Not a mutable global, as the classic seed's repository is: overrides are
/// task-local, so a test that swaps a dependency does not change it for
/// another test running at the same time, and the tasks a scope starts
/// (a cluster's sends from it, child tasks) see its values. A dependency
/// that is shared mutable state is a reference to something that
/// synchronizes itself, an actor say, as the key's `value`.
///
/// ```swift
/// extension DependencyRepository {
///     var gatekeeperState: GatekeeperState {
///         get { self[GatekeeperStateKey.self] }
///         set { self[GatekeeperStateKey.self] = newValue }
///     }
/// }
///
/// try await DependencyRepository.withValues { $0.gatekeeperState = GatekeeperState(user: .authenticated("ada")) } operation: {
///     try await cluster.send(action: UserAction.fetchArticles)
/// }
/// ```
public struct DependencyRepository: Sendable {
    private var overrides: [ObjectIdentifier: any Sendable] = [:]

    /// A repository with every key at its `value`.
    public init() {}

    /// The value for `key`: overridden in this scope, or the key's `value`.
    public subscript<K: DependencyKey>(key: K.Type) -> K.Value {
        get { overrides[ObjectIdentifier(key)] as? K.Value ?? K.value }
        set { overrides[ObjectIdentifier(key)] = newValue }
    }

    /// The repository of the current task.
    @TaskLocal static var current = DependencyRepository()

    /// The dependencies of the current task (what ``Dependency`` reads).
    public static var values: DependencyRepository { current }

    /// Runs `operation` with the dependencies `change` sets, on top of the
    /// current ones, for it and every task it starts that inherits task-local
    /// values (not `Task.detached`).
    ///
    /// - Returns: what `operation` returns.
    public static func withValues<R>(
        _ change: (inout DependencyRepository) throws -> Void, operation: () async throws -> R, isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> R {
        var values = current
        try change(&values)
        return try await $current.withValue(values, operation: operation)
    }

    /// The synchronous form of ``withValues(_:operation:isolation:)``.
    public static func withValues<R>(_ change: (inout DependencyRepository) throws -> Void, operation: () throws -> R) rethrows -> R {
        var values = current
        try change(&values)
        return try $current.withValue(values, operation: operation)
    }
}
