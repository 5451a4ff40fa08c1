import Synchronization

/// Process-wide source of unique producer and consumer ids.
///
/// The seed draws ids at random; a counter cannot collide, which matters for
/// `unicast` gates where ids pair producers with consumers.
public enum GateIdentifier {
    private static let counter = Atomic<UInt64>(1)

    /// A fresh id, never returned before in this process.
    public static func next() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}
