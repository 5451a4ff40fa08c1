import Foundation
import KarcRendering

/// What replies and states have held so far in a run: strings, whole
/// numbers and UUIDs a later command may reuse, so an id an `add` returned
/// is likely to reach a `remove`, and a sequence gets past "not found".
package struct ValuePool: Sendable, Equatable {
    /// Each kind holds at most this many, the newest kept.
    static let capacity = 64
    /// A value is looked into at most this many parts deep and wide.
    static let maximumParts = 400

    package private(set) var strings: [String] = []
    package private(set) var ints: [Int] = []
    package private(set) var uuids: [String] = []

    package init() {}

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
            for child in mirror.children {
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

    /// Adds what `other` holds (a worker's harvest, sent back as text).
    package mutating func merge(strings: [String], ints: [Int], uuids: [String]) {
        for string in strings { Self.keep(string, in: &self.strings) }
        for int in ints { Self.keep(int, in: &self.ints) }
        for uuid in uuids { Self.keep(uuid, in: &self.uuids) }
    }
}
