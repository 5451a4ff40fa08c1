/// One field of a command, learned from its `Decodable` type.
public struct FieldSchema: Sendable, Equatable {
    /// The coding key (`userEmail`); the shell also accepts it kebab-cased (`user-email`).
    public let name: String
    public let type: FieldType
    /// False for fields decoded with `decodeIfPresent` (optionals, and fields with defaults).
    public let isRequired: Bool
    /// The value an omitted field gets, as JSON, when the type is `Encodable` and has one.
    public let defaultValue: String?
}
