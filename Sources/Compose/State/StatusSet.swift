import OrderedCollections

infix operator !~= : ComparisonPrecedence

/// A status a ``StatusSet`` can hold (`enum Status: String, AnyStatus { case loading }`).
public protocol AnyStatus: Hashable, Codable, Sendable {}

/// The statuses a state is in (`loading`, `saving`, …), each at most once.
///
/// Two sets are equal when they hold the same statuses; iteration and
/// encoding follow insertion order, so printed and persisted states are
/// stable from run to run.
public struct StatusSet<Status: AnyStatus>: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral, Codable {
    private var statuses: OrderedSet<Status>

    /// An empty set.
    public init() {
        statuses = []
    }

    public init(arrayLiteral statuses: Status...) {
        self.statuses = OrderedSet(statuses)
    }

    /// Whether no status is set.
    public var isEmpty: Bool { statuses.isEmpty }
    /// How many statuses are set.
    public var count: Int { statuses.count }

    /// Whether `status` is set.
    public func contains(_ status: Status) -> Bool {
        statuses.contains(status)
    }

    public func makeIterator() -> OrderedSet<Status>.Iterator {
        statuses.makeIterator()
    }

    public static func == (lhs: StatusSet, rhs: StatusSet) -> Bool {
        lhs.statuses.count == rhs.statuses.count && lhs.statuses.allSatisfy(rhs.statuses.contains)
    }

    public init(from decoder: any Decoder) throws {
        statuses = OrderedSet(try [Status](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try Array(statuses).encode(to: encoder)
    }

    /// Adds `status` (no change if it is already there).
    public static func += (set: inout StatusSet, status: Status) {
        set.statuses.append(status)
    }

    /// Removes `status` (no change if it is not there).
    public static func -= (set: inout StatusSet, status: Status) {
        set.statuses.remove(status)
    }

    /// Replaces every status with `status` alone.
    public static func |= (set: inout StatusSet, status: Status) {
        set.statuses = [status]
    }

    /// Whether the set contains `status`.
    public static func ~= (set: StatusSet, status: Status) -> Bool {
        set.contains(status)
    }

    /// Whether the set does not contain `status`.
    public static func !~= (set: StatusSet, status: Status) -> Bool {
        !set.contains(status)
    }
}

extension StatusSet: CustomStringConvertible {
    public var description: String {
        "[" + statuses.map { "\($0)" }.joined(separator: ", ") + "]"
    }
}
