import KarcAsync
import KarcSynchronization
import Synchronization

/// Collects what observers saw, from any task, in arrival order.
public final class Recorder<Value: Sendable>: Sendable {
    private let storage = KarcMutex<[Value]>([])
    private let changes = Changes()

    public init() {}

    public func record(_ value: Value) {
        storage.withLock { $0.append(value) }
        changes.changed()
    }

    /// Waits until `condition` holds of the values recorded, woken by each
    /// new one (no polling; a hang is the test's time limit, named).
    public func until(_ condition: ([Value]) -> Bool) async -> Bool {
        await changes.until { condition(values) }
    }

    public var values: [Value] {
        storage.withLock { $0 }
    }

    public var count: Int {
        storage.withLock { $0.count }
    }
}
