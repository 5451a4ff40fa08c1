/// Why a gate refused or abandoned a value.
///
/// Every case carries a ``GateError/Context`` naming the gate and the type of the
/// value involved, so a message such as
/// `every consumer of DispatchOutgoingMessage is busy (6 attached) on commands of TestDomain`
/// tells a person what to change.
public enum GateError: Error, Sendable, CustomStringConvertible {
    /// The gate was sealed; nothing more can pass through it.
    case sealed(Context)
    /// No attached consumer accepts the value (retainable and transient gates).
    case noConsumer(Context)
    /// Consumers that accept the value are attached, but every one is busy (transient gates).
    case noReadyConsumer(Context)
    /// The gate's queue was full, so the oldest waiting producer was dropped.
    case discardedProducer(Context)
    /// The consumer holding the value detached before it replied.
    case discardedConsumer(Context)
    /// The producer's task was cancelled while it waited.
    case canceledProducer(Context)
    /// The consumer's task was cancelled while it waited.
    case canceledConsumer(Context)

    /// Where an error happened.
    public struct Context: Sendable, Equatable {
        /// The gate's label and configuration, e.g. `commands of TestDomain (transient, anycast)`.
        public let gate: String
        /// The dynamic type of the value, e.g. `DispatchOutgoingMessage`.
        public let inputType: String
        /// How many consumers that accept the value were attached.
        public let matchingConsumers: Int

        /// The context of a gate error: the gate, the input type, how many consumers matched.
        public init(gate: String, inputType: String, matchingConsumers: Int = 0) {
            self.gate = gate
            self.inputType = inputType
            self.matchingConsumers = matchingConsumers
        }
    }

    /// Where the error happened.
    public var context: Context {
        switch self {
        case .sealed(let c), .noConsumer(let c), .noReadyConsumer(let c), .discardedProducer(let c),
            .discardedConsumer(let c), .canceledProducer(let c), .canceledConsumer(let c):
            return c
        }
    }

    public var description: String {
        let c = context
        switch self {
        case .sealed:
            return "\(c.gate) is sealed; \(c.inputType) was not delivered"
        case .noConsumer:
            return "nothing on \(c.gate) accepts \(c.inputType)"
        case .noReadyConsumer:
            let noun = c.matchingConsumers == 1 ? "consumer" : "consumers"
            return "every consumer of \(c.inputType) is busy (\(c.matchingConsumers) \(noun) attached) on \(c.gate)"
        case .discardedProducer:
            return "\(c.gate) is full; the oldest waiting \(c.inputType) was discarded"
        case .discardedConsumer:
            return "the consumer holding \(c.inputType) detached from \(c.gate) before replying"
        case .canceledProducer:
            return "sending \(c.inputType) to \(c.gate) was cancelled"
        case .canceledConsumer:
            return "waiting for \(c.inputType) on \(c.gate) was cancelled"
        }
    }
}

extension GateError: Equatable {
    /// Two errors are equal when they are the same case about the same gate and type.
    public static func == (lhs: GateError, rhs: GateError) -> Bool {
        lhs.description == rhs.description
    }
}

/// The dynamic type of `value`, also when it arrives in an existential (`any Command`).
/// Cheap (a metadata read); formatting it as a name is not, so that waits for an error.
@inline(__always)
func dynamicType(of value: Any) -> Any.Type {
    type(of: value)
}
