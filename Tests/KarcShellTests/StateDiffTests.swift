import CustomDump
import Foundation
import Testing

@testable import KarcRendering
@testable import KarcSession
@testable import KarcShell

/// The shell's state diff must print exactly what custom-dump's `diff`
/// prints: pairs of old and new states of every shape, small and large,
/// each compared with `diff(_:_:)`.
@Suite("State diffs: custom-dump's text, at the cost of the change", .timeLimit(.minutes(1)))
struct StateDiffTests {
    struct Counter: Equatable { var count: Int }
    struct Profile: Equatable {
        var name: String
        var tags: [String]
        var nickname: String?
    }
    struct Article: Equatable, Identifiable {
        var id: Int
        var title: String
        var likes = 0
    }
    struct Note: Equatable {
        var title: String
        var likes = 0
    }
    /// Padding between its fields: copies need not agree byte for byte.
    struct Padded: Equatable {
        var done: Bool
        var id: Int
        var title: String
    }
    /// Padding after its last field (a `Bool`): its size is not its stride.
    struct Trailing: Equatable, Codable {
        var id: Int
        var title: String
        var done = false
    }
    struct Shelf: Equatable {
        var articles: [Article]
        var nextID: Int
        var owner: String
    }
    struct Board: Equatable {
        var notes: [Note]
        var pinned: Set<String>
        var scores: [String: Int]
    }
    enum Mode: Equatable {
        case idle
        case busy(since: Int)
        case failed(String, code: Int)
        case nested(Counter)
    }
    indirect enum Tree: Equatable {
        case leaf(Int)
        case node(Tree, Tree)
    }
    struct Described: Equatable, CustomDumpStringConvertible {
        var value: Int
        var customDumpDescription: String { "#\(value)" }
    }
    struct Represented: Equatable, CustomDumpRepresentable {
        var value: Int
        var customDumpValue: Any { [value, value] }
    }
    struct Stubborn: Equatable {
        var value: Int
        static func == (_: Self, _: Self) -> Bool { false }
    }
    struct Holder {
        var any: Any
        var list: [Any]
    }
    struct Macroish: Equatable {
        var value = 1
        var _$observationRegistrar = 0
    }
    struct Wrapper<Value: Equatable>: Equatable { var value: Value }

    static func articles(_ count: Int) -> [Article] { (0..<count).map { Article(id: $0, title: "article \($0)") } }
    static func notes(_ count: Int) -> [Note] { (0..<count).map { Note(title: "note \($0)") } }

    // Computed: `Any` is not Sendable, so each test builds its own.
    static var pairs: [(String, Any, Any)] {
        let shelf = Shelf(articles: articles(5), nextID: 5, owner: "jill")
        var grown = shelf
        grown.articles.append(Article(id: 5, title: "new"))
        grown.nextID = 6
        var liked = shelf
        liked.articles[2].likes = 1
        var removed = shelf
        removed.articles.remove(at: 1)
        var renamed = shelf
        renamed.owner = "chris"
        let board = Board(notes: notes(4), pinned: ["a", "b"], scores: ["x": 1, "y": 2])
        var rescored = board
        rescored.scores["y"] = 3
        var rekeyed = board
        rekeyed.scores["x"] = nil
        rekeyed.scores["w"] = 1
        var repinned = board
        repinned.pinned.insert("c")
        var renoted = board
        renoted.notes[1].likes = 2
        renoted.notes.insert(Note(title: "inserted"), at: 3)
        return [
            ("ints", 1, 2), ("strings", "a", "b"), ("a string gains a line", "one", "one\ntwo"),
            ("a line changes", "one\ntwo\nthree", "one\n2\nthree"), ("lines go", "a\nb\nc\nd", "a\nd"),
            ("quotes in lines", "say \"hi\"\nbye", "say \"hi\"\nbye!"),
            ("a one-field struct", Counter(count: 0), Counter(count: 1)),
            ("a field of several", Profile(name: "Jill", tags: ["a"], nickname: nil), Profile(name: "Chris", tags: ["a"], nickname: nil)),
            ("an optional field set", Profile(name: "J", tags: [], nickname: nil), Profile(name: "J", tags: [], nickname: "jj")),
            ("an optional field cleared", Profile(name: "J", tags: [], nickname: "jj"), Profile(name: "J", tags: [], nickname: nil)),
            ("an array field grows", Profile(name: "J", tags: [], nickname: nil), Profile(name: "J", tags: ["x"], nickname: nil)),
            ("an element appended", shelf, grown), ("an element's field", shelf, liked), ("an element removed", shelf, removed),
            ("a field beside an array", shelf, renamed),
            ("appended at the root", [1, 2, 3], [1, 2, 3, 4]), ("prepended", [1, 2, 3], [0, 1, 2, 3]),
            ("inserted in the middle", [1, 2, 3, 4], [1, 2, 9, 3, 4]), ("removed from the middle", [1, 2, 3, 4], [1, 3, 4]),
            ("replaced", [1, 2, 3], [1, 7, 3]), ("swapped", [1, 2, 3], [2, 1, 3]), ("emptied", [1, 2], [Int]()),
            ("filled", [Int](), [1]), ("duplicates", [1, 1, 2, 1], [1, 2, 1, 1]), ("a removal and a pairing", ["x", "a"], ["a", "a"]),
            ("all changed", [1, 2, 3], [4, 5, 6]), ("nested arrays", [[1, 2], [3]], [[1, 2], [3, 4]]),
            (
                "identified elements change", [Article(id: 1, title: "a"), Article(id: 2, title: "b")],
                [Article(id: 1, title: "a"), Article(id: 2, title: "B")]
            ),
            (
                "unidentified elements change", notes(3),
                {
                    var notes = notes(3)
                    notes[1].likes = 5
                    return notes
                }()
            ),
            (
                "padded elements", [Padded(done: false, id: 1, title: "a"), Padded(done: true, id: 2, title: "b")],
                [Padded(done: false, id: 1, title: "a"), Padded(done: false, id: 2, title: "b"), Padded(done: true, id: 3, title: "c")]
            ),
            ("optionals in an array", [1, nil, 3] as [Int?], [1, 2, nil] as [Int?]),
            ("a dictionary value", board, rescored), ("a dictionary key swapped", board, rekeyed), ("a set grows", board, repinned),
            ("notes changed and inserted", board, renoted),
            ("a root dictionary", ["a": 1, "b": 2, "c": 3], ["a": 1, "b": 5, "d": 4]), ("a root set", Set([1, 2, 3]), Set([2, 3, 4])),
            ("an enum case's payload", Mode.busy(since: 1), Mode.busy(since: 2)), ("enum cases", Mode.idle, Mode.busy(since: 1)),
            ("two payloads", Mode.failed("x", code: 1), Mode.failed("x", code: 2)),
            ("a struct payload", Mode.nested(.init(count: 1)), Mode.nested(.init(count: 2))),
            ("enums inside", Wrapper(value: [Mode.idle, .busy(since: 1)]), Wrapper(value: [Mode.idle, .busy(since: 2)])),
            ("an indirect enum", Tree.node(.leaf(1), .node(.leaf(2), .leaf(3))), Tree.node(.leaf(1), .node(.leaf(2), .leaf(4)))),
            ("tuples", (1, "a"), (1, "b")), ("labelled tuples", (x: 1, y: [1]), (x: 1, y: [1, 2])),
            ("a custom description", Wrapper(value: Described(value: 1)), Wrapper(value: Described(value: 2))),
            ("a custom dump value", Wrapper(value: Represented(value: 1)), Wrapper(value: Represented(value: 2))),
            ("equal by fields, not by ==", Wrapper(value: Stubborn(value: 1)), Wrapper(value: Stubborn(value: 2))),
            ("existentials", Holder(any: 1, list: [1, "a"]), Holder(any: "1", list: [1, "b"])),
            ("macro storage", Macroish(value: 1), Macroish(value: 2)),
            ("an optional root", Optional(Counter(count: 1)) as Any, Optional(Counter(count: 2)) as Any),
            ("nil to some", Optional<Counter>.none as Any, Optional(Counter(count: 2)) as Any),
            ("generic wrappers", Wrapper(value: Wrapper(value: 1)), Wrapper(value: Wrapper(value: 2))),
            // A cast sees through an optional: what it wraps decides, not the optional's type.
            ("an optional custom description", Wrapper(value: Described?.none), Wrapper(value: Described?.some(.init(value: 2)))),
            ("optional custom descriptions", Wrapper(value: Described?.some(.init(value: 1))), Wrapper(value: Described?.some(.init(value: 2)))),
            ("optional custom dump values", Wrapper(value: Represented?.some(.init(value: 1))), Wrapper(value: Represented?.none)),
        ]
    }

    @Test(arguments: 0..<pairs.count)
    func smallStatesDiffAsCustomDumpDiffsThem(index: Int) {
        let (name, old, new) = Self.pairs[index]
        #expect(StateDiff.text(old, new) == diff(old, new), "\(name)")
    }

    static var largePairs: [(String, Any, Any)] {
        let base = Shelf(articles: articles(10_000), nextID: 10_000, owner: "jill")
        var appended = base
        appended.articles.append(Article(id: 10_000, title: "new"))
        appended.nextID += 1
        var edited = base
        edited.articles[5_000].likes += 1
        var removed = base
        removed.articles.remove(at: 2_500)
        var inserted = base
        inserted.articles.insert(Article(id: -1, title: "first"), at: 0)
        var two = base
        two.articles[10].title = "ten"
        two.articles[9_990].title = "nine thousand nine hundred ninety"
        let notes = notes(3_000)
        var editedNotes = notes
        editedNotes[1_500].likes = 1
        let padded = (0..<3_000).map { Padded(done: $0.isMultiple(of: 2), id: $0, title: "p\($0)") }
        var morePadded = padded
        morePadded.append(Padded(done: true, id: 3_000, title: "p3000"))
        return [
            ("appended to 10,000", base, appended), ("an element edited in the middle", base, edited),
            ("removed from 10,000", base, removed), ("inserted at the start", base, inserted), ("edited at both ends", base, two),
            ("unidentified elements", notes, editedNotes), ("padded elements appended", padded, morePadded),
            (
                "a long line list", (0..<500).map { "line \($0)" }.joined(separator: "\n"),
                (0..<500).map { $0 == 250 ? "changed" : "line \($0)" }.joined(separator: "\n")
            ),
        ]
    }

    @Test(arguments: 0..<largePairs.count)
    func largeStatesDiffAsCustomDumpDiffsThem(index: Int) {
        let (name, old, new) = Self.largePairs[index]
        #expect(StateDiff.text(old, new) == diff(old, new), "\(name)")
    }

    @Test func anUnchangedStateHasNoDiff() {
        let articles = Self.articles(1_000)
        #expect(StateDiff.text(articles, articles) == nil)
        // Equal, but built apart: no byte in common where the strings live.
        #expect(StateDiff.text(Self.articles(1_000), Self.articles(1_000)) == nil)
        #expect(StateDiff.text(Counter(count: 1), Counter(count: 1)) == nil)
    }

    @Test func appendingToALargeStatePrintsOnlyTheChange() throws {
        let old = Shelf(articles: Self.articles(10_000), nextID: 10_000, owner: "jill")
        var new = old
        new.articles.append(Article(id: 10_000, title: "new"))
        new.nextID += 1
        // `#expect`, not custom-dump's `expectNoDifference`: this target does not link
        // IssueReportingTestSupport, so a difference there would be printed and not fail.
        #expect(
            StateDiff.text(old, new)
                == """
                  StateDiffTests.Shelf(
                    articles: [
                      … (10000 unchanged),
                +     [10000]: StateDiffTests.Article(
                +       id: 10000,
                +       title: "new",
                +       likes: 0
                +     )
                    ],
                -   nextID: 10000,
                +   nextID: 10001,
                    owner: "jill"
                  )
                """)
    }

    /// A snapshot keeps the bytes of a list's storage, padding and all, so
    /// its elements that are still those copied compare in one run, padded
    /// or not; an element changed in place, and one appended, are found.
    @Test func aSnapshotOfAPaddedListFindsWhatChangedInPlace() {
        let made = { (0..<3_000).map { Trailing(id: $0, title: "t\($0)") } }
        #expect(MemoryLayout<Trailing>.size < MemoryLayout<Trailing>.stride)
        var list = made()
        let snapshot = StateSnapshot.take(list)
        list[1_234].done = true
        list.append(Trailing(id: 3_000, title: "new"))
        #expect(StateDiff.text(snapshot, list) == diff(made(), list))
        #expect(StateDiff.text(StateSnapshot.take(list), list) == nil)
    }

    /// An element inserted at the start of a padded list moves the others
    /// by one, bytes and padding: they are found unchanged from the end (by
    /// the bytes the snapshot kept, or by `==` where those differ), and an
    /// element changed among them is found too; as is a removal. The diff
    /// is custom-dump's, and the JSON tree that reuses the last one's nodes
    /// where the comparison found the list unchanged is the tree made anew.
    @Test func aSnapshotOfAPaddedListFindsWhatMovedWhenTheListGrowsOrShrinksAtItsStart() {
        var list = (0..<3_000).map { Trailing(id: $0, title: "t\($0)") }
        let changes: [(inout [Trailing]) -> Void] = [
            { $0.insert(Trailing(id: -1, title: "first"), at: 0) },
            {
                $0.insert(Trailing(id: -2, title: "newer"), at: 0)
                $0[2_000].done = true
            },
            { $0.removeFirst(2) },
        ]
        for change in changes {
            // `before` shares no storage with `list`, which changes in place, its elements moved bitwise.
            let (before, snapshot, tree) = (list.map { $0 }, StateSnapshot.take(list), ValueText.tree(list, reusing: nil))
            change(&list)
            let prefixes = ComparedPrefixes()
            #expect(StateDiff.text(snapshot, list, prefixes: prefixes) == diff(before, list))
            let reused = ValueText.tree(list, reusing: tree, prefixes: prefixes).text
            let made = ValueText.tree(list, reusing: nil).text
            #expect(reused == made, "the tree reusing the last one's nodes differs at byte \(zip(reused.utf8, made.utf8).prefix { $0 == $1 }.count)")
        }
    }

    /// The one deliberate difference: what did not change, bit for bit, is
    /// unchanged, whatever its `==` says (custom-dump would print "Not equal
    /// but no difference detected"): a state diff shows changes.
    @Test func aValueWhoseBitsDidNotChangeIsUnchangedWhateverItsEqualsSays() {
        #expect(StateDiff.text(Wrapper(value: Stubborn(value: 1)), Wrapper(value: Stubborn(value: 1))) == nil)
        #expect(StateDiff.text(Double.nan, Double.nan) == nil)
        #expect(diff(Double.nan, Double.nan) != nil)
    }

    final class Box: Equatable {
        var value: Int
        init(_ value: Int) { self.value = value }
        static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
    }

    @Test func classesAreLeftToCustomDump() {
        let old = Wrapper(value: Box(1))
        let new = Wrapper(value: Box(2))
        #expect(StateDiff.text(old, new) == diff(old, new))
    }
}
