import Foundation
import KarcShellTrellis
import Testing
import Trellis

@testable import KarcRendering
@testable import KarcSession
@testable import KarcShell

/// `--json` on a user's types that are not `Encodable`: their parts as JSON,
/// as the dump shows them, and a change's patch as fine as a `Codable` state's.
@Suite("JSON of values that are not Encodable", .timeLimit(.minutes(1)))
struct ReflectedJSONTests {
    enum Light {
        case off
        case dimmed(Int)
        case colored(red: Int, green: Int)
        case pair(Int, String)
    }
    struct Inner { var label = "a/b \"quoted\"" }
    struct Tag: Hashable { var name: String }
    class Base {
        var id = 7
        init() {}
    }
    final class Lamp: Base {
        var watts = 40
    }
    struct Room {
        var name = "hall"
        var lights: [Light] = [.off, .dimmed(3), .colored(red: 1, green: 2), .pair(4, "x")]
        var inner = Inner()
        var nothing: Int? = nil
        var something: Inner? = Inner()
        var byName = ["b": Light.off, "a": .dimmed(1)]
        var byNumber = [2: "two", 10: "ten"]
        var tags: Set<Tag> = [Tag(name: "z"), Tag(name: "a"), Tag(name: "m")]
        var corner = (x: 1, y: 2)
        var size = (3, 4)
        var lamp = Lamp()
        var opened = Date(timeIntervalSinceReferenceDate: 60)
        var codable = CodableLeaf()
        var action: @Sendable () -> Void = {}
    }
    struct CodableLeaf: Codable { var count = 2 }

    @Test func everyKindOfPartIsJSONAsTheDumpShowsIt() throws {
        let text = try #require(JSONText.encode(ReflectedJSON(Room())))
        #expect(
            text
                == #"{"action":"(Function)","byName":{"a":{"dimmed":1},"b":"off"},"byNumber":{"10":"ten","2":"two"},"codable":{"count":2},"#
                + #""corner":{"x":1,"y":2},"inner":{"label":"a/b \"quoted\""},"lamp":{"id":7,"watts":40},"#
                + #""lights":["off",{"dimmed":3},{"colored":{"green":2,"red":1}},{"pair":{"_0":4,"_1":"x"}}],"#
                + #""name":"hall","nothing":null,"opened":60,"size":[3,4],"something":{"label":"a/b \"quoted\""},"tags":[{"name":"a"},{"name":"m"},{"name":"z"}]}"#
        )
        // What a tool reads: a JSON document.
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    /// `DumperTests.Node`: a name and the next node.
    typealias Node = DumperTests.Node

    @Test func aCycleOfObjectsEndsWhereAnObjectComesAgain() throws {
        let first = Node("first")
        first.next = Node("second", next: first)
        let text = try #require(JSONText.encode(ReflectedJSON(first)))
        #expect(text == #"{"name":"first","next":{"name":"second","next":"↩︎ DumperTests.Node"}}"#)
    }

    indirect enum Chain {
        case end
        case link(Chain)
    }

    @Test func aDeepValueIsCutAtTheDepthLimit() throws {
        var chain = Chain.end
        for _ in 0..<200 { chain = .link(chain) }
        let text = try #require(JSONText.encode(ReflectedJSON(chain)))
        #expect(text.hasPrefix(#"{"link":{"link":"#))
        #expect(text.contains(#""…""#))
        #expect(!text.contains(#""end""#))
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    struct Reading { var value = Double.nan }

    /// What a reply, an event or a redirect's action is on its line (``ValueText/json(_:)``).
    @Test func aValueIsItsPartsOrItsDumpWhenNotEvenReflectionCanWriteIt() {
        func json(_ value: Any) -> String {
            var out = ""
            ValueText.json(value).appendJSON(to: &out)
            return out
        }
        #expect(json(Light.colored(red: 1, green: 0)) == #"{"colored":{"green":0,"red":1}}"#)
        #expect(json(Result<Inner, any Error>.success(Inner())) == #"{"success":{"label":"a/b \"quoted\""}}"#)
        #expect(json(Reading()) == #""ReflectedJSONTests.Reading(value: nan)""#)
    }

    // MARK: Through the shell

    struct Board: Equatable, Sendable {
        var title = "plan"
        var cards: [Card] = []
    }
    struct Card: Equatable, Sendable {
        var text: String
        var done = false
    }
    struct AddCard: Action, Codable { var text: String }
    struct Finish: Action, Codable { var index: Int }

    func board() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Board.self)
                .mutate(on: AddCard.self) { board, action, _ in board.cards.append(Card(text: action.text)) }
                .mutate(on: Finish.self) { board, action, _ in board.cards[action.index].done = true }
                .with(model: Board()).named("board")
        }
        return ClusterShell(name: "board", cluster: cluster)
    }

    @Test func aStateThatIsNotEncodableChangesByAPatchOfWhatChanged() async throws {
        var options = ShellOptions()
        options.printing.json = true
        options.printing.jsonStates = true
        let run = try await Transcript.run(
            try await board(), ["board.add-card text=milk", "board.add-card text=eggs", "board.finish index=0"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        let states = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["kind"] as? String == "state" }
        #expect(states.count == 3)
        let patches = states.map { ($0["patch"] as? [[String: Any]]) ?? [] }
        #expect(patches[1].count == 1)
        #expect(patches[1].first?["op"] as? String == "add")
        #expect(patches[1].first?["path"] as? String == "/cards/1")
        #expect((patches[1].first?["value"] as? [String: Any])?["text"] as? String == "eggs")
        #expect(patches[2].count == 1)
        #expect(patches[2].first?["op"] as? String == "replace")
        #expect(patches[2].first?["path"] as? String == "/cards/0/done")
        #expect(patches[2].first?["value"] as? Bool == true)
        let new = try #require(states[2]["new"] as? [String: Any])
        #expect(new["title"] as? String == "plan")
        #expect((new["cards"] as? [[String: Any]])?.map { $0["done"] as? Bool } == [true, false])
    }
}
