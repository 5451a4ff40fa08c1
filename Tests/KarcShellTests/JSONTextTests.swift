import Foundation
import Testing

@testable import KarcRendering
@testable import KarcSession
@testable import KarcShell

/// The shell's JSON writer must write what `JSONEncoder` writes (sorted keys,
/// slashes as they are), or leave the value to it.
@Suite("JSON text: JSONEncoder's output without its cost", .timeLimit(.minutes(1)))
struct JSONTextTests {
    enum Mood: String, Codable { case calm, grumpy }
    enum Shape: Codable {
        case circle(radius: Double)
        case square(Int)
        case none
    }
    struct Point: Codable {
        var x: Int
        var y: Double
    }
    struct Keys: Codable {
        var b = 1
        var B = 2
        var a10 = 3
        var a2 = 4
        var _x = 5
        var é = 6
        var Z = 7
    }
    struct Everything: Codable {
        var int = -3, small: Int8 = 12, big = UInt64.max, double = 2.5, whole = 3.0, tiny = 1e-7, huge = 1e20, negativeZero = -0.0
        var float: Float = 0.1
        var flag = true, text = "quote \" backslash \\ slash / newline \n tab \t bell \u{7} del \u{7f} é 😀"
        var mood = Mood.grumpy, list = [1, 2, 3], empty: [String] = [], nested = [[Point(x: 1, y: 2)]]
        var optional: String? = "here", absent: Int? = nil
        var byName = ["b": 1, "a": 2], byNumber = [10: "ten", 2: "two"], withNil: [String: Int?] = ["x": nil]
        var shapes = [Shape.circle(radius: 1.5), .square(2), .none]
    }
    final class Base: Codable { var id = 1 }
    struct Stamped: Codable { var at = Date(timeIntervalSince1970: 0) }
    struct Linked: Codable { var url = URL(string: "https://example.com/a")! }  // a literal that parses
    struct Bytes: Codable { var data = Data([1, 2]) }
    struct NotANumber: Codable { var value = Double.nan }

    func viaJSONEncoder(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func plainValuesAreWrittenAsJSONEncoderWritesThem() throws {
        let values: [any Encodable] = [
            Everything(), Keys(), Point(x: -1, y: 0.5), [Point](), 42, "just a string", 1.0, true, Mood.calm,
            Optional<Int>.none, [String: Int](), Base(), Shape.square(1),
        ]
        for value in values {
            #expect(JSONText.encode(value) == (try viaJSONEncoder(value)), "\(value)")
        }
    }

    struct Special: Codable {
        var at: Date
        var link: URL
        var bytes: Data
        var amount: Decimal
        var optionalAt: Date?
        var byName: [String: Date]
    }

    /// Dates, URLs, data and decimals inside a state keep the state on the
    /// fast path (and its `--json` lines on reused trees), written as
    /// `JSONEncoder` writes them with its default strategies.
    @Test func whatJSONEncoderWritesItsOwnWayIsWrittenTheSameWay() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let seconds = Double.random(in: -4e9...4e9, using: &generator)
            let value = Special(
                at: Date(timeIntervalSinceReferenceDate: seconds.rounded(.down) + Double(Int.random(in: 0..<1_000_000)) / 1e6),
                link: URL(string: "https://example.com/a/b?q=\(Int.random(in: 0..<1_000))&x=é")!,  // a literal that parses
                bytes: Data((0..<Int.random(in: 0..<40)).map { _ in UInt8.random(in: 0...255) }),
                amount: Decimal(string: "\(Int.random(in: -99_999...99_999)).\(Int.random(in: 0..<1_000))")!,  // digits, a dot, digits
                optionalAt: Bool.random() ? Date(timeIntervalSince1970: seconds) : nil,
                byName: ["k": Date(timeIntervalSinceReferenceDate: seconds)])
            #expect(JSONText.encode(value) == (try viaJSONEncoder(value)), "\(value)")
        }
        for value in [Stamped(), Linked(), Bytes(), Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 0)] as [any Encodable] {
            #expect(JSONText.encode(value) == (try viaJSONEncoder(value)), "\(value)")
        }
    }

    @Test func whatOnlyJSONEncoderCanWriteIsLeftToIt() {
        #expect(JSONText.encode(NotANumber()) == nil)
    }
}

/// A state's JSON is encoded against the last one: unchanged parts are the
/// old nodes themselves, so the patch between them costs what changed.
@Suite("JSON trees: an encoding that reuses the last one", .timeLimit(.minutes(1)))
struct JSONTreeTests {
    struct Article: Codable, Equatable {
        var id: Int
        var title: String
        var tags: [String] = []
    }
    struct Shelf: Codable, Equatable {
        var articles: [Article]
        var nextID: Int
        var owner: String?
    }

    func viaJSONEncoder(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func patch(_ old: Shelf, _ new: Shelf) throws -> (text: String, patch: [String], shared: Int) {
        let before = try #require(JSONText.tree(old, reusing: nil))
        let after = try #require(JSONText.tree(new, reusing: before))
        guard case .object(let oldFields) = before.kind, case .array(let oldItems)? = oldFields["articles"]?.kind,
            case .object(let newFields) = after.kind, case .array(let newItems)? = newFields["articles"]?.kind
        else {
            Issue.record("not an object with an array")
            return ("", [], 0)
        }
        let shared = newItems.filter { item in oldItems.contains { $0 === item } }.count
        return (after.text, JSONPatch.patch(from: before, to: after).map(\.text), shared)
    }

    static let shelf = Shelf(articles: (0..<1_000).map { Article(id: $0, title: "article \($0)") }, nextID: 1_000, owner: nil)

    @Test func anAppendedElementIsTheOnlyNewNode() throws {
        var new = Self.shelf
        new.articles.append(Article(id: 1_000, title: "new"))
        new.nextID += 1
        let result = try patch(Self.shelf, new)
        #expect(result.text == (try viaJSONEncoder(new)))
        #expect(result.shared == 1_000)
        #expect(
            result.patch == [
                #"{"op":"add","path":"/articles/1000","value":{"id":1000,"tags":[],"title":"new"}}"#,
                #"{"op":"replace","path":"/nextID","value":1001}"#,
            ])
    }

    @Test func anElementChangedInTheMiddleIsEncodedAloneAndPatchedInPlace() throws {
        var new = Self.shelf
        new.articles[500].tags.append("x")
        new.owner = "jill"
        let result = try patch(Self.shelf, new)
        #expect(result.text == (try viaJSONEncoder(new)))
        #expect(result.shared == 999)
        #expect(result.patch == [#"{"op":"add","path":"/articles/500/tags/0","value":"x"}"#, #"{"op":"add","path":"/owner","value":"jill"}"#])
    }

    @Test func insertedAndRemovedElementsKeepTheEndsShared() throws {
        var inserted = Self.shelf
        inserted.articles.insert(Article(id: -1, title: "first"), at: 0)
        let atStart = try patch(Self.shelf, inserted)
        #expect(atStart.text == (try viaJSONEncoder(inserted)))
        #expect(atStart.shared == 1_000)
        #expect(atStart.patch == [#"{"op":"add","path":"/articles/0","value":{"id":-1,"tags":[],"title":"first"}}"#])
        var removed = Self.shelf
        removed.articles.remove(at: 10)
        let inMiddle = try patch(Self.shelf, removed)
        #expect(inMiddle.text == (try viaJSONEncoder(removed)))
        #expect(inMiddle.patch == [#"{"op":"remove","path":"/articles/10"}"#])
    }

    struct Log: Codable {
        var entries: [Entry]
        struct Entry: Codable {
            var at: Date
            var text: String
        }
    }

    @Test func aStateWithDatesIsEncodedAgainstTheLastOneToo() throws {
        let old = Log(entries: (0..<1_000).map { .init(at: Date(timeIntervalSinceReferenceDate: Double($0)), text: "e\($0)") })
        var new = old
        new.entries.append(.init(at: Date(timeIntervalSinceReferenceDate: 1_000.5), text: "new"))
        let before = try #require(JSONText.tree(old, reusing: nil))
        let after = try #require(JSONText.tree(new, reusing: before))
        #expect(JSONPatch.patch(from: before, to: after).map(\.text) == [#"{"op":"add","path":"/entries/1000","value":{"at":1000.5,"text":"new"}}"#])
    }

    @Test func anEqualStateRebuiltApartIsAllShared() throws {
        let rebuilt = Shelf(articles: (0..<1_000).map { Article(id: $0, title: "article \($0)") }, nextID: 1_000, owner: nil)
        let result = try patch(Self.shelf, rebuilt)
        #expect(result.patch.isEmpty)
        #expect(result.shared == 1_000)
    }
}

/// A JSON array's items in chunks shared between one tree and the next.
@Suite("JSON node lists", .timeLimit(.minutes(1)))
struct JSONNodeListTests {
    typealias Node = JSONText.Node
    static func nodes(_ range: Range<Int>) -> [Node] { range.map { Node(.scalar("\($0)")) } }
    static func texts(_ list: JSONNodeList) -> [String] {
        list.map { node in if case .scalar(let text) = node.kind { text } else { "?" } }
    }

    @Test(arguments: [
        (0..<0, 0..<2), (0..<3, 0..<0), (5..<6, 0..<1), (127..<129, 0..<3), (200..<200, 0..<5), (300..<300, 0..<200),
        (0..<300, 0..<0), (250..<300, 0..<0), (128..<256, 0..<128),
    ])
    func replacingARangeGivesTheSameItemsAsAnArrayWould(range: Range<Int>, inserted: Range<Int>) {
        let all = Self.nodes(0..<300)
        let list = JSONNodeList(all)
        let new = Self.nodes(1_000..<(1_000 + inserted.count))
        var expected = all
        expected.replaceSubrange(range, with: new)
        let replaced = list.replacing(range, with: new)
        #expect(Self.texts(replaced) == expected.map { if case .scalar(let text) = $0.kind { text } else { "?" } })
        #expect(replaced.count == expected.count)
        #expect((0..<replaced.count).allSatisfy { replaced[$0] === expected[$0] })
        // The chunks wholly outside the range are shared, not copied.
        let shared = replaced.chunks.filter { chunk in list.chunks.contains { $0 === chunk } }.count
        #expect(shared >= list.chunks.count - 2 - (range.count / JSONNodeList.chunkSize))
    }

    @Test func anAppendCopiesOnlyTheLastChunkAndTheListBeforeIsUntouched() {
        let list = JSONNodeList(Self.nodes(0..<1_000))
        let appended = list.replacing(1_000..<1_000, with: Self.nodes(1_000..<1_001))
        #expect(Self.texts(list).count == 1_000)
        #expect(appended.count == 1_001)
        #expect(zip(list.chunks.dropLast(), appended.chunks).allSatisfy { $0 === $1 })
        #expect(JSONNodeList.commonPrefix(list, appended, equal: ===) == 1_000)
        #expect(JSONNodeList.commonSuffix(list, appended, limit: 1_000, equal: ===) == 0)
        let first = list.replacing(0..<1, with: Self.nodes(5_000..<5_001))
        #expect(JSONNodeList.commonPrefix(list, first, equal: ===) == 0)
        #expect(JSONNodeList.commonSuffix(list, first, limit: 1_000, equal: ===) == 999)
    }
}
