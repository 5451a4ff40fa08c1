import CustomDump
import Foundation
import Testing

@testable import KarcLanguage
@testable import KarcSession
@testable import KarcShell

/// The direct decoder must give what `JSONDecoder` gives for the same fields,
/// or give up so the JSON path decides.
@Suite("Field decoder: JSONDecoder's values without the JSON", .timeLimit(.minutes(1)))
struct FieldDecoderTests {
    enum Mood: String, Codable, CaseIterable { case calm, grumpy }
    struct Point: Codable, Equatable {
        var x: Int
        var y: Double
    }
    struct Everything: Codable, Equatable, Sendable {
        var int: Int
        var small: Int8
        var unsigned: UInt32
        var double: Double
        var flag: Bool
        var text: String
        var mood: Mood
        var list: [Int]
        var nested: [[String]]
        var optional: String?
        var absent: Int?
        var point: Point?
        var points: [Point]
        var defaulted = 5

        enum CodingKeys: String, CodingKey { case int, small, unsigned, double, flag, text, mood, list, nested, optional, absent, point, points }
    }
    struct Custom: Decodable, Sendable {
        var value: Int
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            value = try container.decode(Int.self, forKey: .value)
            guard value >= 0 else { throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "negative") }
        }
        enum CodingKeys: CodingKey { case value }
    }
    struct Special: Decodable, Sendable { var url: URL }
    struct Fraction: Decodable, Sendable { var ratio: Float }

    static var everything: [String: FieldValue] {
        [
            "int": .int(-3), "small": .int(12), "unsigned": .int(7), "double": .int(2), "flag": .bool(true),
            "text": .string("héllo \"there\""), "mood": .string("grumpy"), "list": .list([.int(1), .int(2)]),
            "nested": .list([.list([.string("a")]), .list([])]), "optional": .string("here"),
            "point": .object(["x": .int(1), "y": .double(2.5)]), "points": .list([.object(["x": .int(0), "y": .int(0)])]),
        ]
    }

    func viaJSON<T: Decodable>(_ type: T.Type, _ fields: [String: FieldValue]) throws -> T {
        let data = try JSONSerialization.data(withJSONObject: FieldValue.object(fields).jsonObject)
        return try JSONDecoder().decode(type, from: data)
    }

    @Test func everyPlainShapeDecodesAsJSONDecoderDecodesIt() throws {
        let direct = try #require(FieldDecoder.decode(Everything.self, from: Self.everything) as? Everything)
        // `#expect`: custom-dump's `expectNoDifference` does not fail a test of this target (no IssueReportingTestSupport).
        #expect(direct == (try viaJSON(Everything.self, Self.everything)))
        #expect(direct.absent == nil && direct.defaulted == 5)
    }

    @Test func anythingJSONDecoderWouldRejectIsLeftToIt() throws {
        var tooBig = Self.everything
        tooBig["small"] = .int(300)
        var wrongType = Self.everything
        wrongType["text"] = .int(1)
        var missing = Self.everything
        missing["int"] = nil
        var badCase = Self.everything
        badCase["mood"] = .string("sleepy")
        for fields in [tooBig, wrongType, missing, badCase] {
            #expect(FieldDecoder.decode(Everything.self, from: fields) == nil)
            #expect(throws: DecodingError.self) { try viaJSON(Everything.self, fields) }
        }
        #expect(FieldDecoder.decode(Custom.self, from: ["value": .int(-1)]) == nil, "the type's own check still runs")
        #expect((FieldDecoder.decode(Custom.self, from: ["value": .int(4)]) as? Custom)?.value == 4)
    }

    @Test func floatsDatesAndDecimalsDecodeDirectlyAsJSONDecoderWould() throws {
        let direct = try #require(FieldDecoder.decode(Fraction.self, from: ["ratio": .double(0.1)]) as? Fraction)
        #expect(direct.ratio == (try viaJSON(Fraction.self, ["ratio": .double(0.1)])).ratio)
        struct Stamped: Decodable, Sendable {
            var at: Date
            var total: Decimal
        }
        let fields: [String: FieldValue] = ["at": .date(Date(timeIntervalSince1970: 86_400)), "total": .exactDecimal(Decimal(string: "12.35")!)]
        let stamped = try #require(FieldDecoder.decode(Stamped.self, from: fields) as? Stamped)
        let viaJSON = try viaJSON(Stamped.self, fields)
        #expect(stamped.at == viaJSON.at && stamped.at == Date(timeIntervalSince1970: 86_400))
        #expect(stamped.total == viaJSON.total && stamped.total == Decimal(string: "12.35"))
    }

    @Test func typesJSONDecoderTreatsSpeciallyGoThroughIt() {
        #expect(FieldDecoder.decode(Special.self, from: ["url": .string("https://example.com")]) == nil)
        #expect(FieldDecoder.decode(Everything.self, from: Self.everything.merging(["point": .parsed(["x": 1, "y": 2])]) { $1 }) == nil)
    }
}
