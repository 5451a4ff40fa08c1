import KarcAsync
import Synchronization

/// Collects what observers saw, from any task, in arrival order.
public final class Recorder<Value: Sendable>: Sendable {
    private let storage = KarcMutex<[Value]>([])

    public init() {}

    public func record(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    public var values: [Value] {
        storage.withLock { $0 }
    }

    public var count: Int {
        storage.withLock { $0.count }
    }
}
