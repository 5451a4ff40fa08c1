import Testing

@testable import KarcLanguage
@testable import KarcSession
@testable import KarcShell

@Suite(.timeLimit(.minutes(1)))
struct EnumCasesTests {
    enum Action: Codable {
        case login(email: String, password: String)
        case logout
        case rename(String)
    }

    enum One: Codable { case only(Int) }

    enum Raw: String, CodingKey {
        case first = "one"
        case second = "two"
    }

    struct Custom: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Captures the key type an enum's synthesized `init(from:)` asks for.
    struct KeyTypeSpy: Decoder {
        final class Box { var type: (any CodingKey.Type)? }
        let box: Box
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            box.type = type
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "spy"))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "spy"))
        }
        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "spy"))
        }
    }

    func caseNames(of type: any Decodable.Type) -> [String]? {
        let spy = KeyTypeSpy(box: .init())
        _ = try? type.init(from: spy)
        guard let keyType = spy.box.type else { return nil }
        return names(keyType)
    }

    func names<Key: CodingKey>(_ type: Key.Type) -> [String]? {
        EnumCases.all(type)?.map(\.stringValue)
    }

    @Test func theSynthesizedKeysOfAnEnumAreItsCasesInOrder() {
        #expect(caseNames(of: Action.self) == ["login", "logout", "rename"])
        #expect(caseNames(of: One.self) == ["only"])
    }

    @Test func rawValuedKeysGiveTheirRawValues() {
        #expect(names(Raw.self) == ["one", "two"])
    }

    @Test func aKeyTypeThatIsNotAPayloadFreeEnumHasNoKnownCases() {
        #expect(names(Custom.self) == nil)
    }
}
