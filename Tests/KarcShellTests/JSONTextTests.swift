import Foundation
@testable import KarcShell
import Testing

/// The shell's JSON writer must write what `JSONEncoder` writes (sorted keys,
/// slashes as they are), or leave the value to it.
@Suite("JSON text: JSONEncoder's output without its cost")
struct JSONTextTests {
    enum Mood: String, Codable { case calm, grumpy }
    enum Shape: Codable { case circle(radius: Double), square(Int), none }
    struct Point: Codable { var x: Int; var y: Double }
    struct Keys: Codable { var b = 1; var B = 2; var a10 = 3; var a2 = 4; var _x = 5; var é = 6; var Z = 7 }
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

    @Test func whatJSONEncoderTreatsSpeciallyIsLeftToIt() {
        for value in [Stamped(), Linked(), Bytes(), NotANumber()] as [any Encodable] {
            #expect(JSONText.encode(value) == nil, "\(value)")
        }
        #expect(JSONText.encode(Date()) == nil)
    }
}
