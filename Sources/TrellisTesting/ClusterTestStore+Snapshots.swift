import Testing
import Trellis

extension ClusterTestStore {
    /// The state of every target that can be restored, now (`Cluster.snapshot()`):
    /// to put back with ``restore(_:sourceLocation:)`` later in the test.
    public func snapshot() async -> ClusterSnapshot {
        await cluster.snapshot()
    }

    /// Puts back the states `snapshot` holds (`Cluster.restore(_:)`)
    /// and waits for the work that set off (a Karc model's scopes). Each
    /// state that changed is a change to assert, as a send's would be.
    ///
    /// ```swift
    /// let start = await store.snapshot()
    /// try await store.send(CartAction.add(name: "apple", quantity: 2), to: "cart")
    /// store.assert("cart", as: Cart.self) { $0.items["apple"] = 2 }
    /// try await store.restore(start)
    /// store.assert("cart", as: Cart.self) { $0.items = [:] }
    /// ```
    ///
    /// - Throws: what `Cluster.restore(_:)` throws; then nothing was restored.
    public func restore(_ snapshot: ClusterSnapshot, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await cluster.restore(snapshot)
        await settle(sourceLocation)
    }
}
