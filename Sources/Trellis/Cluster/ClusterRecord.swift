/// One thing that happened in a cluster, as its observers see it.
public enum ClusterRecord: Sendable {
    /// An action entered the cluster (through `send` or an emitter); `sequence` counts from 1.
    case sent(sequence: UInt64, action: any Sendable)
    /// The answer to the send `sequence` (a model's duplex reply, say); only when there is one.
    case replied(sequence: UInt64, reply: any Sendable)
    /// A middleware (`by`, its type name) replaced `action`, the send
    /// `sequence`, with the actions `to`, which follow as sends of their own.
    case redirected(sequence: UInt64, action: any Sendable, by: String, to: [any Sendable])
    /// The send `sequence` failed; sequence 0 when an emitter's sequence itself threw.
    case failed(sequence: UInt64, error: any Error)
    /// A model emitted an event; `source` names the target (or submodel).
    case emitted(source: String, event: any Sendable)
    /// The state of `source` changed.
    case stateChanged(source: String, old: any Sendable, new: any Sendable)
    /// The observer fell behind and `count` records were dropped here (the oldest first).
    case lost(count: Int)
}
