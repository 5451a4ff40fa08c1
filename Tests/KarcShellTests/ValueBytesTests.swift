import Foundation
import Testing

@testable import KarcReflection
@testable import KarcRendering

/// Elements with padding between their fields (a `Bool` before a `Date?`):
/// the padding of a copy holds whatever was there, so a comparison of their
/// bytes must leave it out, and must still see every change of a field.
@Suite("Value bytes: a padded element compared by its fields' bytes", .timeLimit(.minutes(1)))
struct ValueBytesTests {
    struct Todo: Equatable {
        var id: Int
        var title: String
        var done: Bool
        var due: Date?
    }

    struct Pair: Equatable {
        var flag: Bool
        var todo: Todo
    }

    /// `count` todos in an array of their own, each element's padding filled with `fill`.
    func todos(_ count: Int, padding fill: UInt8) throws -> [Todo] {
        var list = (0..<count).map {
            Todo(id: $0, title: "todo \($0)", done: $0.isMultiple(of: 2), due: $0.isMultiple(of: 3) ? nil : Date(timeIntervalSince1970: Double($0)))
        }
        let mask = try #require(ValueBytes.mask(of: Todo.self))
        list.withUnsafeMutableBytes { bytes in
            for element in 0..<count {
                for byte in 0..<MemoryLayout<Todo>.stride where mask.words[byte / 8] >> (8 * UInt64(byte % 8)) & 0xFF == 0 {
                    bytes[element * MemoryLayout<Todo>.stride + byte] = fill
                }
            }
        }
        return list
    }

    @Test func theMaskCoversEachFieldAndNotThePadding() throws {
        let mask = try #require(ValueBytes.mask(of: Todo.self))
        // id 0–7, title 8–23, done 24, padding 25–31, due 32–40 (a Double and its tag), padding 41–47.
        #expect(mask.words == [.max, .max, .max, 0xFF, .max, 0xFF])
        #expect(ValueBytes.mask(of: Int.self) == nil)  // no padding: a whole-element memcmp is right
        #expect(ValueBytes.mask(of: (Int, Int).self) == nil)
        // Padding inside, none at the end (its size is its stride): still left out.
        struct Inside {
            var count: Int64
            var flag: Bool
            var small: Int32
        }
        #expect(MemoryLayout<Inside>.size == MemoryLayout<Inside>.stride)
        #expect(try #require(ValueBytes.mask(of: Inside.self)).words == [.max, 0xFFFF_FFFF_0000_00FF])
        let nested = try #require(ValueBytes.mask(of: Pair.self))
        #expect(nested.words.first == 0xFF)  // the flag, then the todo's own fields at its offset
    }

    @Test func equalElementsWithOtherPaddingAreUnchanged() throws {
        let old = try todos(1_000, padding: 0x00)
        let new = try todos(1_000, padding: 0xAB)
        #expect(old.unchangedPrefix(from: 0, comparedWith: new, from: 0, limit: .max) == 1_000)
        #expect(StateDiff.text(old, new) == nil)
    }

    @Test func aChangeInAnyFieldIsSeen() throws {
        let old = try todos(100, padding: 0x00)
        for change in [{ (todo: inout Todo) in todo.done.toggle() }, { $0.due = nil }, { $0.id += 1 }, { $0.title += "!" }] {
            var new = try todos(100, padding: 0xAB)
            change(&new[40])
            #expect(old.unchangedPrefix(from: 0, comparedWith: new, from: 0, limit: .max) == 40)
        }
    }
}
