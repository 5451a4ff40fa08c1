import Testing

@testable import KarcLanguage
@testable import KarcSession
@testable import KarcShell

// Commands as an application writes them: plain Codable types.
struct Increment: Codable, Sendable {
    var value: Int

    init(value: Int = 1) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decodeIfPresent(Int.self, forKey: .value) ?? 1
    }
}

struct Reset: Codable, Sendable {}

enum Mood: String, Codable, Sendable, CaseIterable { case happy, grumpy }

struct Address: Codable, Sendable, Equatable {
    var street: String
    var number: Int
}

struct RegisterUser: Codable, Sendable {
    var userEmail: String
    var userPassword: String
    var age: Int?
    var score: Double?
    var isAdmin: Bool?
    var mood: Mood?
    var tags: [String]?
    var address: Address?
}

/// Rejects placeholders in its initializer: the shell can still take it as JSON.
struct Strict: Decodable, Sendable {
    let code: String
    struct Invalid: Error {}
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(String.self, forKey: .code)
        guard code.count == 3 else { throw Invalid() }
    }
    enum CodingKeys: CodingKey { case code }
}

@Suite("Command catalog: fields learned from Codable types", .timeLimit(.minutes(1)))
struct CatalogTests {
    @Test func fieldsComeFromTheTypeInDecodingOrder() throws {
        let schema = CommandSchema(RegisterUser.self)
        #expect(schema.name == "register-user")
        let fields = try #require(schema.fields)
        #expect(fields.map(\.name) == ["userEmail", "userPassword", "age", "score", "isAdmin", "mood", "tags", "address"])
        #expect(fields.map(\.isRequired) == [true, true, false, false, false, false, false, false])
        #expect(fields.map(\.type.description) == ["String", "String", "Int", "Double", "Bool", "Mood", "[String]", "Address"])
        #expect(fields[5].type == .choice(type: "Mood", cases: ["happy", "grumpy"]))
    }

    @Test func aDefaultAppliedByTheDecoderIsShown() {
        let schema = CommandSchema(Increment.self)
        #expect(schema.fields == [FieldSchema(name: "value", type: .int, isRequired: false, defaultValue: "1")])
        #expect(schema.synopsis == "increment [value=Int, default 1]")
        #expect(CommandSchema(Reset.self).synopsis == "reset")
        #expect(CommandSchema(RegisterUser.self).synopsis.hasPrefix("register-user user-email=String user-password=String [age=Int]"))
    }

    @Test func aTypeThatRejectsPlaceholdersIsTakenAsJSON() {
        let schema = CommandSchema(Strict.self)
        #expect(schema.fields == nil)
        #expect(schema.synopsis == "strict {json}")
    }

    @Test(arguments: [
        ("IncrementByThree", "increment-by-three"), ("userEmail", "user-email"), ("URLPath", "url-path"),
        ("Reset", "reset"), ("dispatch_outgoing_message", "dispatch-outgoing-message"), ("Step2Go", "step2-go"),
    ])
    func namesAreKebabCased(_ name: String, _ kebab: String) {
        #expect(Names.kebab(name) == kebab)
    }

    @Test func namesMatchAcrossCaseAndSeparators() {
        #expect(Names.matches("send-message", "sendMessage"))
        #expect(Names.matches("SENDMESSAGE", "sendMessage"))
        #expect(!Names.matches("send", "sendMessage"))
    }

    @Test func suggestionsFindLikelyTypos() {
        #expect(Names.suggestion(for: "emial", among: ["email", "password"]) == "email")
        #expect(Names.suggestion(for: "incremnt", among: ["increment", "reset"]) == "increment")
        #expect(Names.suggestion(for: "xyz", among: ["increment", "reset"]) == nil)
        #expect(Names.suggestion(for: "inc", among: ["increment", "reset"]) == "increment")
    }
}
