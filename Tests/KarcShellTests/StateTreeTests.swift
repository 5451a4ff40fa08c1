import Foundation
import KarcRendering
import Testing

/// The inspector's state tree: a part at a time, a page of a long list at a
/// time, the same on a state and on a snapshot kept of it.
@Suite(.timeLimit(.minutes(1)))
struct StateTreeTests {
    struct Ticket: Equatable {
        enum Status: Equatable {
            case open
            case assigned(to: String)
        }
        var id: Int
        var title: String
        var status: Status
        var tags: [String: Int] = [:]
        var due: Date?
    }
    struct Board: Equatable {
        var tickets: [Ticket]
        var owner: String?
    }

    static let board = Board(
        tickets: (0..<10_000).map { Ticket(id: $0, title: "ticket \($0)", status: $0 == 9_999 ? .assigned(to: "jill") : .open) },
        owner: nil)

    @Test func aLongListIsReadAPageAtATime() {
        let root = StateTree.part(Self.board)
        #expect(root == StateTree.Part(kind: .fields, type: "StateTreeTests.Board", count: 2, text: nil))
        let fields = StateTree.children(of: Self.board)
        #expect(fields.map { StatePath.text([$0.step]) } == ["tickets", "owner"])
        #expect(StateTree.part(fields[0].value) == StateTree.Part(kind: .list, type: "[StateTreeTests.Ticket]", count: 10_000, text: nil))
        #expect(StateTree.part(fields[1].value) == StateTree.Part(kind: .value, type: "String?", count: 0, text: "nil"))
        let last = StateTree.children(of: fields[0].value, offset: 9_998, limit: 200)
        #expect(last.map { StatePath.text([$0.step]) } == ["[9998]", "[9999]"])
        let ticket = StateTree.children(of: last[1].value)
        #expect(ticket.map { StatePath.text([$0.step]) } == ["id", "title", "status", "tags", "due"])
        #expect(StateTree.part(ticket[1].value).text == #""ticket 9999""#)
        #expect(StateTree.part(ticket[2].value).kind == .fields, "a case with a payload opens to it")
        #expect(StateTree.part(ticket[3].value) == StateTree.Part(kind: .dictionary, type: "[String: Int]", count: 0, text: nil))
        #expect(StateTree.children(of: fields[0].value, offset: 20_000, limit: 10).isEmpty)
    }

    @Test func aSnapshotIsReadAsTheStateItWasTakenOf() {
        let snapshot = StateSnapshot.take(Self.board)
        let list = StateTree.children(of: snapshot)[0].value
        #expect(StateTree.part(list).count == 10_000)
        let ticket = StateTree.children(of: list, offset: 9_999, limit: 1)[0].value
        #expect(
            StateTree.children(of: ticket).map { StateTree.part($0.value).text }
                == StateTree.children(of: Self.board.tickets[9_999]).map {
                    StateTree.part($0.value).text
                })
    }

    @Test func searchFindsNamesAndValuesAndStopsOnAHugeState() {
        let found = StateTree.search(Self.board, for: "JILL")
        #expect(found.paths == ["tickets[9999].status.assigned.to"])
        #expect(found.complete)
        let bounded = StateTree.search(Self.board, for: "ticket 1", limit: 3)
        #expect(bounded.paths == ["tickets[1].title", "tickets[10].title", "tickets[11].title"])
        #expect(!bounded.complete)
        let visits = StateTree.search(Self.board, for: "nothing like this", visits: 1_000)
        #expect(visits.paths.isEmpty && !visits.complete)
    }
}
