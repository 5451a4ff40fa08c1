import Foundation
import KarcCommand

/// A command the shell can send: a `Decodable` type, or one case of a
/// `Decodable` enum, and the fields learned from it.
public struct CommandSchema: Sendable {
    /// The command's name in the shell: the type's name, kebab-cased
    /// (`IncrementByThree` → `increment-by-three`), or the enum case's (`login`).
    public let name: String
    /// The Swift type's name, with the case for an enum's (`IdentityAction.login`).
    public let typeName: String
    /// The command type the shell decodes.
    public let type: any (Decodable & Sendable).Type
    /// The coding key of the enum case this command sends; nil for a struct command.
    public let enumCase: String?
    /// The fields, in the order the type decodes them; nil when the type could
    /// not be probed (it is then written as `{json}` only).
    public let fields: [FieldSchema]?
    /// What the command does: its doc comment's first paragraph (types marked `@Command`).
    public let summary: String?
    /// For a command a target names itself (``init(named:typeName:input:summary:action:)``): makes the
    /// value sent from the decoded ``type``. Nil for a command type, which is sent as decoded.
    package let makeAction: (@Sendable (any Sendable) -> any Sendable)?

    /// The command of a type decoded as a whole (a struct); see ``commands(for:)`` for enums.
    public init(_ type: any (Decodable & Sendable).Type) {
        self.type = type
        typeName = "\(type)"
        name = Names.kebab(typeName)
        enumCase = nil
        let documentation = (type as? any CommandDocumented.Type)?.commandDocumentation
        summary = documentation?.summary
        fields = (try? SchemaProbe.probe(type)).map { Self.fields(of: $0, documentation: documentation) }
        makeAction = nil
    }

    /// A command a target names itself rather than a type of its own (an
    /// emitter of a mounted component tree): `name` is a dot-separated path
    /// (`logIn.openResetPassword`), written kebab-cased part by part
    /// (`log-in.open-reset-password`); it takes one field, `value`, of type
    /// `input` (none when nil), and sends what `action` makes of it.
    ///
    /// - Parameters:
    ///   - name: The command's path, as Swift writes it.
    ///   - typeName: What `:help` says the command sends (`EmitSignal`).
    ///   - input: The type of its `value` field; nil for a command without fields.
    ///   - summary: What the command does, for `:help`.
    ///   - action: Makes the value sent from the typed value (nil for a command without fields).
    public init(
        named name: String, typeName: String, input: (any (Decodable & Sendable).Type)?, summary: String? = nil,
        action: @escaping @Sendable ((any Sendable)?) -> any Sendable
    ) {
        func fieldType<Input: Decodable & Sendable>(_: Input.Type) -> any (Decodable & Sendable).Type { NamedCommandValue<Input>.self }
        let type = input.map { fieldType($0) } ?? NamedCommandWithoutValue.self
        self.type = type
        self.typeName = typeName
        self.name = Names.kebabPath(name)
        enumCase = nil
        self.summary = summary
        fields = (try? SchemaProbe.probe(type)).map { Self.fields(of: $0, documentation: nil) }
        makeAction = { decoded in action((decoded as? any NamedCommandInput)?.typedValue) }
    }

    /// The value the shell sends for `decoded`, a value of ``type``.
    package func action(for decoded: any Sendable) -> any Sendable {
        makeAction?(decoded) ?? decoded
    }

    private init(_ type: any (Decodable & Sendable).Type, case probed: SchemaProbe.ProbedCase) {
        self.type = type
        typeName = "\(type).\(probed.key)"
        name = Names.kebab(probed.key)
        enumCase = probed.key
        let documentation = (type as? any CommandDocumented.Type)?.commandDocumentation.cases[probed.key]
        summary = documentation?.summary
        fields = probed.probed.map { Self.fields(of: $0, inCase: probed.key, documentation: documentation) }
        makeAction = nil
    }

    /// The commands a type gives the shell: one per case of a `Codable` enum
    /// (`identity.login email=… password=…`, `identity.logout`), else one.
    public static func commands(for type: any (Decodable & Sendable).Type) -> [CommandSchema] {
        guard let cases = SchemaProbe.cases(of: type) else { return [CommandSchema(type)] }
        return cases.map { CommandSchema(type, case: $0) }
    }

    /// The field `typed` names (case-insensitive, kebab or camel case).
    public func field(named typed: some StringProtocol) -> FieldSchema? {
        fields?.first { $0.name == typed } ?? fields?.first { Names.matches(typed, $0.name) }
    }

    /// `increment [value: Int = 1]`: the command with its fields, as `:help` and hints show it.
    public var synopsis: String {
        fieldsSynopsis.isEmpty ? name : "\(name) \(fieldsSynopsis)"
    }

    /// `[value=Int, default 1]`: the fields alone (the prompt's hint); `{json}` for an unprobed type.
    public var fieldsSynopsis: String {
        guard let fields else { return "{json}" }
        return fields.map { field -> String in
            let written = "\(Names.kebab(field.name))=\(field.type)"
            if field.isRequired { return written }
            return "[\(written)" + (field.defaultValue.map { ", default \($0)" } ?? "") + "]"
        }.joined(separator: " ")
    }

    /// The probed fields with their defaults: as written in Swift when the
    /// type is `@Command`, else as the sample encodes them.
    private static func fields(of probed: SchemaProbe.Probed, inCase key: String? = nil, documentation: CommandDocumentation?) -> [FieldSchema] {
        let defaults = Self.defaults(of: probed.sample, inCase: key)
        return probed.fields.map { field in
            let documented = documentation?.fields[field.name]
            var field = field
            if let help = documented?.summary { field = field.helped(help) }
            guard !field.isRequired, let value = documented?.defaultValue ?? defaults[field.name] else { return field }
            return field.defaulting(to: value)
        }
    }

    /// The optional fields' values in the placeholder sample, as JSON: the
    /// defaults its `init(from:)` applied (nil fields are not encoded). An
    /// enum case's are under its key.
    private static func defaults(of sample: any Decodable, inCase key: String?) -> [String: String] {
        guard let encodable = sample as? any Encodable,
            let data = try? JSONEncoder().encode(encodable),
            var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        if let key {
            guard let values = object[key] as? [String: Any] else { return [:] }
            object = values
        }
        var defaults: [String: String] = [:]
        for (key, value) in object {
            guard let text = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
            else { continue }
            defaults[key] = String(decoding: text, as: UTF8.self)
        }
        return defaults
    }
}
