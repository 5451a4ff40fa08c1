import Foundation
import Testing

@testable import KarcRendering

/// `:undo` puts a state back from the picture the shell kept of it
/// (``StateSnapshot``): a long list element by element, the rest whole.
/// The state's `Decodable` initializer runs over those parts and gets the
/// kept values themselves.
@Suite(.timeLimit(.minutes(1)))
struct SnapshotValueTests {
    enum Status: Equatable, Codable {
        case open
        case closed(reason: String)
    }
    struct Item: Equatable, Codable {
        var id: Int
        var title: String
        var status: Status
        var due: Date?
    }
    struct Meta: Equatable, Codable {
        var owner: String?
        var tags: [String: Int]
    }
    struct Board: Equatable, Codable {
        var items: [Item]
        var meta: Meta
        var archived: [Item]
        var note: String?
    }

    static func board(_ count: Int) -> Board {
        Board(
            items: (0..<count).map {
                Item(
                    id: $0, title: "item \($0)", status: $0 % 3 == 0 ? .closed(reason: "done \($0)") : .open,
                    due: $0 % 2 == 0 ? Date(timeIntervalSince1970: Double($0)) : nil)
            },
            meta: Meta(owner: "jill", tags: ["a": 1, "b": 2]), archived: (0..<300).map { Item(id: -$0, title: "old", status: .open, due: nil) },
            note: nil)
    }

    @Test func aStateKeptInPartsIsPutTogetherAsItWas() throws {
        let board = Self.board(1_000)
        let snapshot = StateSnapshot.take(board)
        #expect(SnapshotNode.in(snapshot) != nil, "two long lists: kept in parts")
        let value = try SnapshotValue.value(of: snapshot, as: Board.self)
        #expect(value as? Board == board)
    }

    @Test func aSnapshotTakenFromAnEarlierOneIsPutTogetherAsItsOwnState() throws {
        var board = Self.board(600)
        let first = StateSnapshot.take(board)
        board.items[5].title = "changed"
        board.items.append(Item(id: 600, title: "new", status: .open, due: nil))
        let second = StateSnapshot.take(board, reusing: first)
        #expect(try SnapshotValue.value(of: second, as: Board.self) as? Board == board)
        #expect(try SnapshotValue.value(of: first, as: Board.self) as? Board == Self.board(600))
    }

    @Test func aStateKeptWholeIsItself() throws {
        let small = Self.board(3)
        let kept = StateSnapshot.take(Meta(owner: nil, tags: [:]))
        #expect(try SnapshotValue.value(of: kept, as: Meta.self) as? Meta == Meta(owner: nil, tags: [:]))
        #expect(SnapshotNode.in(StateSnapshot.take(small.items)) == nil)
    }

    struct Plain: Equatable { var items: [Int] }
    /// Decodes its count from a string: not the shape of what it holds.
    struct Odd: Equatable, Decodable {
        var items: [Int]
        init(items: [Int]) { self.items = items }
        init(from decoder: any Decoder) throws {
            let text = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .items)
            items = Array(repeating: 0, count: Int(text) ?? 0)
        }
        enum CodingKeys: String, CodingKey { case items }
    }

    @Test func whatCannotBePutTogetherSaysWhy() {
        let plain = StateSnapshot.take(Plain(items: Array(0..<300)))
        #expect(throws: SnapshotValue.Failure.self) { try SnapshotValue.value(of: plain, as: Plain.self) }
        #expect(
            "\(SnapshotValue.Failure.notDecodable(type: "Plain"))"
                == "its state holds a long list (kept in parts) and Plain is not Decodable, so it cannot be put together again")
        let odd = StateSnapshot.take(Odd(items: Array(0..<300)))
        do {
            _ = try SnapshotValue.value(of: odd, as: Odd.self)
            Issue.record("an Odd was put together from parts of another shape")
        } catch {
            #expect("\(error)".hasPrefix("Odd could not be put together from its parts (at items: "), "\(error)")
        }
        #expect(throws: SnapshotValue.Failure.self) { try SnapshotValue.value(of: 3, as: String.self) }
    }
}
