@_spi(KarcInternal) import KarcAsync

/// Sends an action into the cluster; what ``Store`` handlers receive as `send`.
///
/// Replace it for a subtree with `.environment(\.send, …)`, e.g. to record
/// the actions a store sends in a test instead of processing them.
public struct Send: Sendable {
    let body: @Sendable (any Sendable) async throws -> Void
    /// The link of the send whose handler was given this, not bound in the
    /// task: bound for the sends the handler makes, so they belong to its
    /// trace.
    var link: TraceLink? = nil

    /// Sends each action through `body`.
    public init(_ body: @escaping @Sendable (any Sendable) async throws -> Void) {
        self.body = body
    }

    /// Sends `action` through the cluster.
    public func callAsFunction(_ action: any Sendable) async throws {
        guard let link else { return try await body(action) }
        try await link.whileCurrent { try await body(action) }
    }

    /// Sends `action` through the cluster.
    public func callAsFunction(action: any Sendable) async throws {
        try await callAsFunction(action)
    }

    /// This send, for the handler of the send whose unbound link is `link`.
    func linked(_ link: TraceLink?) -> Send {
        guard let link else { return self }
        var linked = self
        linked.link = link
        return linked
    }
}
