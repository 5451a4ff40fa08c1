/// One field of a command, learned from its `Decodable` type.
public struct FieldSchema: Sendable, Equatable {
    /// The coding key (`userEmail`); the shell also accepts it kebab-cased (`user-email`).
    public let name: String
    /// The field's type.
    public let type: FieldType
    /// False for fields decoded with `decodeIfPresent` (optionals, and fields with defaults).
    public let isRequired: Bool
    /// The value an omitted field gets, as JSON, when the type is `Encodable` and has one.
    public let defaultValue: String?
    /// The fields of a nested type (`address.city=Paris`), when it could be probed.
    public let fields: [FieldSchema]?
    /// What the field is: its doc comment (types marked `@Command`).
    public let help: String?

    /// A field: its name, type, whether it is required, its default, nested fields and help.
    public init(name: String, type: FieldType, isRequired: Bool, defaultValue: String?, fields: [FieldSchema]? = nil, help: String? = nil) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.fields = fields
        self.help = help
    }

    /// The same field with its default.
    package func defaulting(to value: String) -> FieldSchema {
        FieldSchema(name: name, type: type, isRequired: false, defaultValue: value, fields: fields, help: help)
    }

    /// The same field with its doc comment.
    package func helped(_ text: String) -> FieldSchema {
        FieldSchema(name: name, type: type, isRequired: isRequired, defaultValue: defaultValue, fields: fields, help: text)
    }
}
