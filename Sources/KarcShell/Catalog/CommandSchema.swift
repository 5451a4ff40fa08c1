import Foundation

/// A command the shell can send: a `Decodable` type and the fields learned from it.
public struct CommandSchema: Sendable {
    /// The command's name in the shell: the type's name, kebab-cased (`IncrementByThree` → `increment-by-three`).
    public let name: String
    /// The Swift type's name.
    public let typeName: String
    public let type: any (Decodable & Sendable).Type
    /// The fields, in the order the type decodes them; nil when the type could
    /// not be probed (it is then written as `{json}` only).
    public let fields: [FieldSchema]?

    public init(_ type: any (Decodable & Sendable).Type) {
        self.type = type
        typeName = "\(type)"
        name = Names.kebab(typeName)
        fields = Self.fields(of: type)
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

    private static func fields(of type: any (Decodable & Sendable).Type) -> [FieldSchema]? {
        guard let probed = try? SchemaProbe.probe(type) else { return nil }
        let defaults = Self.defaults(of: probed.sample)
        return probed.fields.map { field in
            guard !field.isRequired, let value = defaults[field.name] else { return field }
            return FieldSchema(name: field.name, type: field.type, isRequired: false, defaultValue: value)
        }
    }

    /// The optional fields' values in the placeholder sample, as JSON: the
    /// defaults its `init(from:)` applied (nil fields are not encoded).
    private static func defaults(of sample: any Decodable) -> [String: String] {
        guard let encodable = sample as? any Encodable,
              let data = try? JSONEncoder().encode(encodable),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        var defaults: [String: String] = [:]
        for (key, value) in object {
            guard let text = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]) else { continue }
            defaults[key] = String(decoding: text, as: UTF8.self)
        }
        return defaults
    }
}
