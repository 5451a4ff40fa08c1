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

    struct Profile: Equatable {
        enum Plan: Equatable {
            case free
            case paid(since: Date)
        }
        var name: String
        var nickname: String?
        var plan: Plan
        var notes: [String: String]
        var bio: String
    }

    @Test func aUsersShapesReadAsTheShellPrintsThem() {
        let profile = Profile(
            name: "Zoë Ångström", nickname: "zo", plan: .paid(since: Date(timeIntervalSince1970: 1_767_323_045.678)),
            notes: ["über": "naïve", "ábc": "🚀", "abc": "plain"], bio: String(repeating: "🙂", count: 600))
        let fields = StateTree.children(of: profile)
        #expect(StateTree.part(fields[0].value).text == #""Zoë Ångström""#)
        #expect(StateTree.part(fields[1].value) == StateTree.Part(kind: .value, type: "String?", count: 0, text: #""zo""#))
        let since = StateTree.children(of: StateTree.children(of: fields[2].value)[0].value)[0]
        #expect(StatePath.text([since.step]) == "since")
        #expect(StateTree.part(since.value).text == "Date(2026-01-02T03:04:05.678Z)")
        #expect(StateTree.part(fields[3].value) == StateTree.Part(kind: .dictionary, type: "[String: String]", count: 3, text: nil))
        #expect(StateTree.children(of: fields[3].value).map { StatePath.text([$0.step]) } == [#"["abc"]"#, #"["ábc"]"#, #"["über"]"#])
        #expect(StateTree.part(StateTree.children(of: fields[3].value, offset: 1, limit: 1)[0].value).text == #""🚀""#)
        let bio = StateTree.part(fields[4].value).text ?? ""
        #expect(bio.count == StateTree.textLimit + 1 && bio.hasSuffix("🙂…"), "cut between characters, never inside one")
        #expect(StateTree.search(profile, for: "ÅNGSTRÖM").paths == ["name"])
    }

    /// A type that shows itself as a dictionary through a mirror of its own, whose children are not pairs.
    struct Settings: CustomReflectable {
        var customMirror: Mirror { Mirror(self, children: ["theme": "dark", "size": 12], displayStyle: .dictionary) }
    }

    @Test func aCustomDictionaryMirrorIsReadByItsLabels() {
        let settings = Settings()
        #expect(StateTree.part(settings) == StateTree.Part(kind: .dictionary, type: "StateTreeTests.Settings", count: 2, text: nil))
        let children = StateTree.children(of: settings)
        #expect(children.map { StatePath.text([$0.step]) } == [#"["size"]"#, #"["theme"]"#])
        #expect(StateTree.part(children[1].value).text == #""dark""#)
        #expect(StateTree.search(settings, for: "dark").paths == [#"["theme"]"#])
    }
}
