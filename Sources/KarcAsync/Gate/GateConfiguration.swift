extension Gate {
    /// What a gate does with a value no consumer is ready for.
    public struct Mode: Sendable, Equatable, CustomStringConvertible {
        enum Kind: Sendable, Equatable { case cumulative, retainable, transient }
        let kind: Kind
        /// Most values that may wait for a consumer; when full, the oldest is discarded.
        public let capacity: Int?

        /// Queues values even while no consumer is attached.
        public static var cumulative: Mode { Mode(kind: .cumulative, capacity: nil) }
        /// Queues values only while a consumer that accepts them is attached; fails otherwise.
        public static var retainable: Mode { Mode(kind: .retainable, capacity: nil) }
        /// Never queues: fails unless a consumer that accepts the value is ready now.
        public static var transient: Mode { Mode(kind: .transient, capacity: nil) }

        /// ``cumulative``, with at most `capacity` values waiting.
        public static func cumulative(capacity: Int? = nil) -> Mode { Mode(kind: .cumulative, capacity: capacity) }
        /// ``retainable``, with at most `capacity` values waiting.
        public static func retainable(capacity: Int? = nil) -> Mode { Mode(kind: .retainable, capacity: capacity) }
        /// ``transient``, with at most `capacity` values waiting.
        public static func transient(capacity: Int? = nil) -> Mode { Mode(kind: .transient, capacity: capacity) }

        public var description: String {
            let name = "\(kind)"
            return capacity.map { "\(name), capacity \($0)" } ?? name
        }
    }

    /// Which consumers a value goes to.
    public struct Scheme: Sendable, CustomStringConvertible {
        enum Kind: Sendable, Equatable { case anycast, multicast, broadcast, unicast }
        let kind: Kind
        let combiner: (@Sendable ([Output]) -> Output)?

        /// The first ready consumer that accepts the value.
        public static var anycast: Scheme { Scheme(kind: .anycast, combiner: nil) }
        /// The ready consumer whose id equals the producer's id.
        public static var unicast: Scheme { Scheme(kind: .unicast, combiner: nil) }
        /// Every ready consumer that accepts the value; busy ones miss it.
        public static var multicast: Scheme { Scheme(kind: .multicast, combiner: nil) }
        /// Every attached consumer that accepts the value, waiting for busy ones.
        public static var broadcast: Scheme { Scheme(kind: .broadcast, combiner: nil) }

        /// Multicast whose producer gets `combiner` applied to the outputs, in attach order.
        public static func multicast(combiner: (@Sendable ([Output]) -> Output)? = nil) -> Scheme {
            Scheme(kind: .multicast, combiner: combiner)
        }

        /// Broadcast whose producer gets `combiner` applied to the outputs, in attach order.
        public static func broadcast(combiner: (@Sendable ([Output]) -> Output)? = nil) -> Scheme {
            Scheme(kind: .broadcast, combiner: combiner)
        }

        public var description: String { "\(kind)" }
    }
}
