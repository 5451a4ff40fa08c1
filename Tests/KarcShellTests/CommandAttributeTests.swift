import Foundation
import KarcCommand
import Testing

/// `@Command` types decode as Swift's own `Decodable` does, with defaults
/// for what is missing, and keep their memberwise initializers.
@Suite(.timeLimit(.minutes(1)))
struct CommandAttributeTests {
    @Command
    struct Renamed: Codable, Equatable {
        var userName: String
        var retries = 3
        var tags: [String] = []
        enum CodingKeys: String, CodingKey {
            case userName = "user_name"
            case retries, tags
        }
    }

    @Command
    enum Step: Codable, Equatable {
        case go(to: String, speed: Double = 1.5)
        case stop
    }

    @Test func missingFieldsGetTheirDefaultsAndPresentOnesWin() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Renamed.self, from: Data(#"{"user_name": "jill"}"#.utf8)) == Renamed(userName: "jill"))
        #expect(
            try decoder.decode(Renamed.self, from: Data(#"{"user_name": "jill", "retries": 5, "tags": ["a"]}"#.utf8))
                == Renamed(userName: "jill", retries: 5, tags: ["a"]))
        #expect(throws: DecodingError.self) { try decoder.decode(Renamed.self, from: Data(#"{"retries": 5}"#.utf8)) }
    }

    @Test func whatSwiftEncodesDecodesBack() throws {
        for value in [Step.go(to: "north", speed: 2), .stop] {
            #expect(try JSONDecoder().decode(Step.self, from: JSONEncoder().encode(value)) == value)
        }
        #expect(try JSONDecoder().decode(Step.self, from: Data(#"{"go": {"to": "west"}}"#.utf8)) == .go(to: "west", speed: 1.5))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Step.self, from: Data(#"{"go": {}, "stop": {}}"#.utf8)) }
    }

    @Test func theDocumentationCarriesDefaultsAsWritten() {
        #expect(Renamed.commandDocumentation.fields["retries"]?.defaultValue == "3")
        #expect(Renamed.commandDocumentation.fields["user_name"]?.defaultValue == nil)
        #expect(Step.commandDocumentation.cases["go"]?.fields["speed"]?.defaultValue == "1.5")
    }
}
