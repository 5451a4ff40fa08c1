import CustomDump
import Foundation
import Testing

@testable import KarcRendering

/// A snapshot stands for the state it was taken of: the diff, the summary
/// and the comparison print and answer what they do for the state itself,
/// on every shape `StateDiffTests` hold to custom-dump and on long lists of
/// users' shapes; and holding it leaves the state's long arrays unshared.
@Suite("State snapshots: the old state's parts, not its arrays", .timeLimit(.minutes(1)))
struct StateSnapshotTests {
    struct Dated: Equatable {
        var id: Int
        var title: String
        var done = false
        var due: Date?
    }
    struct Ticket: Equatable {
        enum Status: Equatable {
            case open
            case assigned(to: String)
            case closed(at: Date, reason: String?)
        }
        var id: Int
        var status: Status
    }
    struct Nested: Equatable {
        struct Meta: Equatable {
            var tags: [String]
            var scores: [String: Int]
        }
        var id: Int
        var meta: Meta
    }
    final class Owner: Equatable {
        let name: String
        init(name: String) { self.name = name }
        static func == (lhs: Owner, rhs: Owner) -> Bool { lhs.name == rhs.name }
    }
    struct Owned: Equatable {
        var id: Int
        var owner: Owner
    }
    struct Lists<Item: Equatable>: Equatable {
        var items: [Item]
        var count: Int
    }
    struct Coded<Item: Codable & Equatable>: Codable, Equatable {
        var items: [Item]
        var count: Int
    }
    struct Outer: Equatable {
        var inner: Lists<Int>
        var name: String
    }

    static func dated(_ n: Int) -> [Dated] {
        (0..<n).map {
            Dated(id: $0, title: "t\($0)", done: $0.isMultiple(of: 2), due: $0.isMultiple(of: 3) ? nil : Date(timeIntervalSince1970: Double($0)))
        }
    }

    static var userShapes: [(String, Any, Any)] {
        let dated = Lists(items: dated(1_000), count: 1_000)
        var datedGrown = dated
        datedGrown.items.append(Dated(id: 1_000, title: "new"))
        var datedEdited = dated
        datedEdited.items[700].done.toggle()
        let tickets = (0..<600).map { Ticket(id: $0, status: $0.isMultiple(of: 2) ? .open : .assigned(to: "u\($0 % 7)")) }
        var ticketsClosed = tickets
        ticketsClosed[301].status = .closed(at: Date(timeIntervalSince1970: 1), reason: nil)
        let nested = (0..<500).map { Nested(id: $0, meta: .init(tags: ["a"], scores: ["s": $0])) }
        var nestedEdited = nested
        nestedEdited[250].meta.tags.append("b")
        let owned = (0..<400).map { Owned(id: $0, owner: Owner(name: "o\($0 % 3)")) }
        var ownedChanged = owned
        ownedChanged[3].owner = Owner(name: "new owner")
        var ownedGrown = owned
        ownedGrown.append(Owned(id: 400, owner: Owner(name: "o0")))
        let outer = Outer(inner: Lists(items: Array(0..<1_000), count: 1_000), name: "n")
        var outerEdited = outer
        outerEdited.inner.items[999] = -1
        outerEdited.name = "m"
        return [
            ("dated appended", dated, datedGrown), ("dated edited", dated, datedEdited),
            ("an enum's payload", tickets, ticketsClosed), ("a nested list and dictionary", nested, nestedEdited),
            ("a class instance replaced", owned, ownedChanged), ("a class element appended", owned, ownedGrown),
            ("a long list two structs down", outer, outerEdited), ("a root list of ints", Array(0..<1_000), Array(1..<1_000)),
        ]
    }

    static var everyPair: [(String, Any, Any)] { StateDiffTests.pairs + StateDiffTests.largePairs + userShapes }

    @Test(arguments: 0..<everyPair.count)
    func aSnapshotDiffsAsTheStateItWasTakenOf(index: Int) {
        let (name, old, new) = Self.everyPair[index]
        let snapshot = StateSnapshot.take(old)
        if name != "a class instance replaced" {
            #expect(StateDiff.text(snapshot, new) == StateDiff.text(old, new), "\(name)")
        }
        #expect(StateSummary.count(snapshot, new) == StateSummary.count(old, new), "\(name)")
        #expect(Unchanged.check(snapshot, new) == Unchanged.check(old, new), "\(name)")
        #expect(Unchanged.check(snapshot, old), "\(name): a snapshot is unchanged from its own state")
    }

    @Test func longListsAreKeptInPartsAndShortOnesWhole() throws {
        let short = Lists(items: Array(0..<10), count: 10)
        #expect(StateSnapshot.take(short) as? Lists<Int> == short)
        let long = Lists(items: Self.dated(1_000), count: 1_000)
        let node = try #require(StateSnapshot.take(long) as? SnapshotNode)
        #expect(node.fields?.map(\.label) == ["items", "count"])
        #expect(node.fields?.first?.value is SnapshotNode)
    }

    /// A state with no array where a snapshot looks for one is kept as it is,
    /// known from its type; an array anywhere it looks, or a field that may
    /// hold one (`Any`, an optional array), keeps the state in parts.
    @Test func aStateWithNoPlaceForALongListIsKeptWholeAndAnyOtherInParts() throws {
        struct Counter {
            var count: Int
            var label: String
            var due: Date?
            var ticket: Ticket.Status
        }
        struct Form {
            var counter: Counter
            var owner: Owned?
            var pair: (Int, String)
        }
        struct Boxed {
            var id: Int
            var payload: Any
        }
        struct MaybeListed {
            var id: Int
            var items: [Int]??
        }
        struct Deep {
            var id: Int
            var inner: Lists<Int>
        }
        #expect(StateSnapshot.isAlwaysWhole(Counter.self))
        #expect(StateSnapshot.isAlwaysWhole(Form.self))
        #expect(StateSnapshot.isAlwaysWhole(Ticket.Status.self))
        #expect(!StateSnapshot.isAlwaysWhole(Boxed.self))
        #expect(!StateSnapshot.isAlwaysWhole(MaybeListed.self))
        #expect(!StateSnapshot.isAlwaysWhole(Deep.self))

        let counter = Counter(count: 1, label: "a", due: nil, ticket: .open)
        #expect(StateSnapshot.take(counter) is Counter)
        let boxed = try #require(StateSnapshot.take(Boxed(id: 1, payload: Array(0..<1_000))) as? SnapshotNode)
        #expect(boxed.fields?.last?.value is SnapshotNode, "an Any holding a long list: the list in parts")
        let listed = try #require(StateSnapshot.take(MaybeListed(id: 1, items: .some(.some(Array(0..<1_000))))) as? SnapshotNode)
        #expect(listed.fields?.last?.value is SnapshotNode, "an optional long list: in parts")
        #expect(StateSnapshot.take(MaybeListed(id: 1, items: nil)) is MaybeListed)
        let deep = try #require(StateSnapshot.take(Deep(id: 1, inner: Lists(items: Array(0..<1_000), count: 1_000))) as? SnapshotNode)
        #expect((deep.fields?.last?.value as? SnapshotNode)?.fields?.first?.value is SnapshotNode)
    }

    /// What a snapshot was built for: the store's next append finds its array unshared.
    @Test func holdingASnapshotLeavesTheStatesArrayUnshared() {
        var state = Lists(items: Self.dated(1_000), count: 1_000)
        state.items.reserveCapacity(2_000)
        let before = state.items.withUnsafeBufferPointer { $0.baseAddress }
        let snapshot = StateSnapshot.take(state)
        state.items.append(Dated(id: 1_000, title: "appended"))
        #expect(state.items.withUnsafeBufferPointer { $0.baseAddress } == before, "appended in place, not copied")
        #expect(StateDiff.text(snapshot, state)?.contains("+     [1000]: StateSnapshotTests.Dated(") == true)
    }

    /// A session's run: each snapshot taken from the last and what the diff of the two learnt.
    @Test func aChainOfSnapshotsDiffsEachChangeAsTheStatesDo() {
        var state = Lists(items: Self.dated(700), count: 700)
        var snapshot = StateSnapshot.take(state)
        for step in 0..<40 {
            let old = state
            switch step % 4 {
            case 0: state.items.append(Dated(id: 700 + step, title: "a\(step)"))
            case 1: state.items[step * 11].title = "edited \(step)"
            case 2: state.items.remove(at: step * 3)
            default: state.count += 1
            }
            let prefixes = ComparedPrefixes()
            #expect(StateDiff.text(snapshot, state, prefixes: prefixes) == StateDiff.text(old, state), "step \(step)")
            snapshot = StateSnapshot.take(state, reusing: snapshot, prefixes: prefixes)
        }
        #expect(Unchanged.check(snapshot, state))
        #expect(StateDiff.text(snapshot, state) == nil)
    }

    struct Item: Codable, Equatable {
        var id: Int
        var title: String
    }

    /// The JSON tree of a change told against a snapshot: the long list's
    /// items are compared once, by the diff, and the tree shares every
    /// unchanged one with the last tree without looking at it again.
    @Test func theJSONTreeOfAChangeToldAgainstASnapshotSharesTheUnchangedItems() throws {
        let old = Coded(items: (0..<1_000).map { Item(id: $0, title: "t\($0)") }, count: 1_000)
        var new = old
        new.items.append(Item(id: 1_000, title: "new"))
        let before = try #require(JSONText.tree(old, reusing: nil))
        let prefixes = ComparedPrefixes()
        _ = StateDiff.text(StateSnapshot.take(old), new, prefixes: prefixes)
        let after = try #require(JSONText.tree(new, reusing: before, prefixes: prefixes))
        guard case .object(let oldFields) = before.kind, case .array(let oldItems)? = oldFields["items"]?.kind,
            case .object(let newFields) = after.kind, case .array(let newItems)? = newFields["items"]?.kind
        else {
            Issue.record("not an object with an array")
            return
        }
        #expect(zip(oldItems, newItems).allSatisfy { $0 === $1 }, "every old item is shared")
        #expect(JSONPatch.patch(from: before, to: after).map(\.text) == [#"{"op":"add","path":"/items/1000","value":{"id":1000,"title":"new"}}"#])
        #expect(oldFields["items"]?.source == nil, "the tree does not hold the long list")
    }

    /// A snapshot node is told from a value by its type, not by a cast to a
    /// class (which, on Linux, bridges an array or a string to Foundation first).
    @Test func aNodeIsToldFromAValueByItsType() throws {
        #expect(SnapshotNode.in(Array(0..<1_000)) == nil)
        #expect(SnapshotNode.in("text") == nil)
        #expect(SnapshotNode.in(Optional<Int>.none as Any) == nil)
        let node = StateSnapshot.take(Lists(items: Array(0..<1_000), count: 1_000))
        #expect(SnapshotNode.in(node) != nil)
    }
}
