/// Sends an action into the cluster; what ``Store`` handlers receive as `send`.
///
/// Replace it for a subtree with `.environment(\.send, …)`, e.g. to record
/// the actions a store sends in a test instead of processing them.
public struct Send: Sendable {
    let body: @Sendable (any Sendable) async throws -> Void

    /// Sends each action through `body`.
    public init(_ body: @escaping @Sendable (any Sendable) async throws -> Void) {
        self.body = body
    }

    /// Sends `action` through the cluster.
    public func callAsFunction(_ action: any Sendable) async throws {
        try await body(action)
    }

    /// Sends `action` through the cluster.
    public func callAsFunction(action: any Sendable) async throws {
        try await body(action)
    }
}
