import Foundation
import Testing

@testable import KarcRendering

/// What the shell keeps of a change for `:blame`: the parts it changed, at
/// their deepest, found the same whether the old state is a value or the
/// snapshot the renderer keeps of it, and as few as the change is.
@Suite("State changes: the parts a change changed", .timeLimit(.minutes(1)))
struct StateChangesTests {
    struct Item: Equatable {
        var id: Int
        var likes = 0
    }
    struct Board: Equatable {
        var items: [Item] = []
        var tags: [String: Int] = [:]
        var lead: Item?
        var status = Status.open

        enum Status: Equatable {
            case open
            case closed(String)
        }
    }

    /// Each change as `path: old → new`, `-` for a part absent.
    static func described(_ old: Any, _ new: Any, limit: Int = 1_000) -> [String] {
        let (changes, omitted) = StateChanges.between(old, new, limit: limit)
        return changes.map { change in
            StatePath.text(change.path) + ": " + (change.old.map { ValueText.inline($0) } ?? "-") + " → "
                + (change.new.map { ValueText.inline($0) } ?? "-")
        } + (omitted > 0 ? ["+\(omitted)"] : [])
    }

    static let board = Board(items: (0..<1_000).map { Item(id: $0) }, tags: ["a": 1])

    @Test func aFieldDeepInsideIsOneChangeAtItsPath() {
        var new = Self.board
        new.items[3].likes = 1
        #expect(Self.described(Self.board, new) == ["items[3].likes: 0 → 1"])
        #expect(Self.described(StateSnapshot.take(Self.board), new) == ["items[3].likes: 0 → 1"], "from a snapshot too")
    }

    @Test func anAppendOrARemovalIsTheElementAddedOrRemovedNotTheShiftedRest() {
        var appended = Self.board
        appended.items.append(Item(id: 1_000))
        #expect(Self.described(StateSnapshot.take(Self.board), appended) == ["items[1000]: - → StateChangesTests.Item(id: 1000, likes: 0)"])
        var removed = Self.board
        removed.items.remove(at: 10)
        #expect(Self.described(Self.board, removed) == ["items[10]: StateChangesTests.Item(id: 10, likes: 0) → -"])
        var inserted = Self.board
        inserted.items.insert(Item(id: -1), at: 0)
        #expect(Self.described(StateSnapshot.take(Self.board), inserted) == ["items[0]: - → StateChangesTests.Item(id: -1, likes: 0)"])
    }

    @Test func dictionariesOptionalsAndEnumsChangeByKeyByValueAndWhole() {
        var new = Self.board
        new.tags["a"] = 2
        new.tags["b"] = 1
        new.lead = Item(id: 7)
        new.status = .closed("done")
        #expect(
            Self.described(Self.board, new) == [
                #"tags["a"]: 1 → 2"#, #"tags["b"]: - → 1"#, "lead: nil → StateChangesTests.Item(id: 7, likes: 0)",
                #"status: StateChangesTests.Board.Status.open → StateChangesTests.Board.Status.closed("done")"#,
            ])
        var later = new
        later.lead?.likes = 3
        later.tags["a"] = nil
        #expect(Self.described(new, later) == [#"tags["a"]: 2 → -"#, "lead.likes: 0 → 3"])
    }

    @Test func anUnchangedStateHasNoChangesAndALimitCountsThoseLeftOut() {
        #expect(Self.described(Self.board, Self.board).isEmpty)
        var new = Self.board
        for index in 0..<5 { new.items[index * 100].likes = 1 }
        #expect(Self.described(Self.board, new, limit: 2) == ["items[0].likes: 0 → 1", "items[100].likes: 0 → 1", "+3"])
        #expect(Self.described(1, 2) == [": 1 → 2"], "a whole state that is one value changes at the empty path")
    }

    @Test func aPathMatchesAsTypedAndAPartIsFoundInASnapshot() throws {
        let steps = try StatePath.parse("items[3].likes").get()
        #expect(StatePath.text(steps) == "items[3].likes")
        #expect(StatePath.text([.field("tags"), .key("env")]) == #"tags["env"]"#)
        let snapshot = StateSnapshot.take(Self.board)
        #expect(StatePath.part(of: snapshot, at: steps) as? Int == 0)
        #expect(StatePath.part(of: snapshot, at: [.field("items"), .index(1_000)]) == nil)
        #expect(StatePath.part(of: Self.board, at: [.field("tags"), .key("a")]) as? Int == 1)
    }
}
