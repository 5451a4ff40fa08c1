import Foundation
import KarcRendering
import KarcSession

/// The strings, whole numbers and UUIDs one command's reply and its
/// target's state held, oldest first.
package struct Harvest: Sendable, Equatable {
    /// Each kind holds at most this many, the newest kept.
    static let capacity = 64
    /// A value is looked into at most this many parts (a big state's first
    /// ones): reflecting is most of what a harvest costs.
    static let maximumParts = 200

    package private(set) var strings: [String] = []
    package private(set) var ints: [Int] = []
    package private(set) var uuids: [String] = []

    package init() {}

    package init(strings: [String], ints: [Int], uuids: [String]) {
        (self.strings, self.ints, self.uuids) = (strings, ints, uuids)
    }

    /// Takes the strings, numbers and UUIDs in `value` (a reply, a state).
    package mutating func harvest(_ value: Any) {
        var budget = Self.maximumParts
        visit(value, depth: 0, budget: &budget)
    }

    private mutating func visit(_ value: Any, depth: Int, budget: inout Int) {
        guard budget > 0, depth < 12 else { return }
        budget -= 1
        let value = ValueChildren.unwrapped(value)
        switch value {
        case let uuid as UUID: Self.keep(uuid.uuidString, in: &uuids)
        case let string as String: if !string.isEmpty, string.utf8.count <= 200 { Self.keep(string, in: &strings) }
        case let int as Int: Self.keep(int, in: &ints)
        case is Bool, is Double, is Float, is Date, is URL, is Decimal: return
        case let integer as any BinaryInteger: if let int = Int(exactly: integer) { Self.keep(int, in: &ints) }
        default:
            let mirror = ValueChildren.mirror(value)
            var children = Array(mirror.children)
            // A dictionary's or set's order is its hash seed's: sorted, a replay finds the same value at the same place.
            if mirror.displayStyle == .dictionary || mirror.displayStyle == .set {
                children.sort { String(describing: $0.value) < String(describing: $1.value) }
            }
            for child in children {
                guard budget > 0 else { return }
                visit(child.value, depth: depth + 1, budget: &budget)
            }
        }
    }

    private static func keep<T: Equatable>(_ value: T, in list: inout [T]) {
        if let index = list.firstIndex(of: value) { list.remove(at: index) }
        list.append(value)
        if list.count > Self.capacity { list.removeFirst(list.count - Self.capacity) }
    }

}

/// What replies and states have held so far in a run, each value with the
/// command whose result held it: a later command may reuse one, so an id
/// an `add` made is likely to reach a `remove`, and a sequence gets past
/// "not found".
package struct ValuePool: Sendable, Equatable {
    static let capacity = 64

    package private(set) var strings: [ExploreReference] = []
    package private(set) var ints: [ExploreReference] = []
    package private(set) var uuids: [ExploreReference] = []

    package init() {}

    /// Takes what the command `source` found.
    package mutating func merge(_ harvest: Harvest, from source: Int) {
        Self.merge(harvest.strings, .string, source, into: &strings) { .string($0) }
        Self.merge(harvest.ints, .int, source, into: &ints) { .int($0) }
        Self.merge(harvest.uuids, .uuid, source, into: &uuids) { .word($0) }
    }

    private static func merge<T>(
        _ values: [T], _ kind: ExploreReference.Kind, _ source: Int, into list: inout [ExploreReference], _ literal: (T) -> ExploreValue
    ) {
        for (index, value) in values.enumerated() {
            let reference = ExploreReference(source: source, kind: kind, fromEnd: values.count - 1 - index, literal: literal(value))
            // The newest place a value was seen names it.
            list.removeAll { $0.literal == reference.literal }
            list.append(reference)
        }
        if list.count > capacity { list.removeFirst(list.count - capacity) }
    }
}
