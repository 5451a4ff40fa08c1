import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Command`: an `init(from:)` that honours defaults, and the type's
/// documentation. The model of the type is read once (``CommandModel``);
/// this file only writes Swift from it.
open class CommandMacro: ExtensionMacro {
    /// Everything goes in extensions: an `init(from:)` in the type's body
    /// would take its memberwise initializer away.
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let model = CommandModel(declaration, diagnose: { context.diagnose(Diagnostic(node: node, message: $0)) }) else { return [] }
        let conformances = protocols.map(\.trimmedDescription)
        let members: [DeclSyntax]
        switch model.shape {
        case .fields(let fields, let keys, _): members = structMembers(model, fields, keys: keys)
        case .cases(let cases): members = enumMembers(model, cases)
        }
        let body = members.map(\.description).joined(separator: "\n\n")
        let decodable = conformances.contains("Decodable") ? ": Decodable" : ""
        var extensions = [try ExtensionDeclSyntax("extension \(type.trimmed)\(raw: decodable) {\n\(raw: body)\n}")]
        if conformances.contains("CommandDocumented") {
            let documentation = documentationLiteral(model)
            extensions.append(
                try ExtensionDeclSyntax(
                    """
                    extension \(type.trimmed): KarcCommand.CommandDocumented {
                        \(raw: model.access)static var commandDocumentation: KarcCommand.CommandDocumentation {
                            \(raw: documentation)
                        }
                    }
                    """))
        }
        return extensions
    }

    // MARK: Structs

    private static func structMembers(_ model: CommandModel, _ fields: [CommandModel.Field], keys: String?) -> [DeclSyntax] {
        // A struct of no fields decodes from anything (as Swift's own `init(from:)` does): no keys to declare.
        guard !fields.isEmpty || keys != nil else { return ["\(raw: model.access)init(from decoder: any Decoder) throws {}"] }
        let keyType = keys ?? "_CommandKeys"
        var body = "let container = try decoder.container(keyedBy: \(keyType).self)\n"
        for field in fields {
            body += "self.\(field.name) = \(decodeExpression(field, container: "container"))\n"
        }
        var members: [DeclSyntax] = [
            "\(raw: model.access)init(from decoder: any Decoder) throws {\n\(raw: body)}"
        ]
        if keys == nil {
            members.append(keysDeclaration("_CommandKeys", fields.map(\.key)))
        }
        return members
    }

    // MARK: Enums

    private static func enumMembers(_ model: CommandModel, _ cases: [CommandModel.Case]) -> [DeclSyntax] {
        var body = """
            let container = try decoder.container(keyedBy: _CommandKeys.self)
            guard container.allKeys.count == 1, let key = container.allKeys.first else {
                throw DecodingError.typeMismatch(Self.self, DecodingError.Context(codingPath: container.codingPath, debugDescription: "Invalid number of keys found, expected one."))
            }
            switch key {

            """
        for item in cases {
            body += "case .\(item.name):\n"
            if item.fields.isEmpty {
                body += "self = .\(item.name)\n"
                continue
            }
            body += "let values = try container.nestedContainer(keyedBy: _CommandKeys_\(item.name).self, forKey: .\(item.name))\n"
            let arguments = item.fields.map { field in
                (field.label.map { "\($0): " } ?? "") + decodeExpression(field, container: "values")
            }
            body += "self = .\(item.name)(\(arguments.joined(separator: ", ")))\n"
        }
        body += "}\n"
        var members: [DeclSyntax] = ["\(raw: model.access)init(from decoder: any Decoder) throws {\n\(raw: body)}"]
        members.append(keysDeclaration("_CommandKeys", cases.map(\.name)))
        for item in cases where !item.fields.isEmpty {
            members.append(keysDeclaration("_CommandKeys_\(item.name)", item.fields.map(\.key)))
        }
        return members
    }

    // MARK: Pieces

    /// How one field is decoded: with its default, as an optional, or
    /// required. No type is named: the extension is at file scope, where a
    /// type nested beside this one is not visible, so each value's type is
    /// inferred from what it is assigned to.
    private static func decodeExpression(_ field: CommandModel.Field, container: String) -> String {
        if let defaultValue = field.defaultValue {
            return "try \(container).decode(field: .\(field.keyCase), default: \(defaultValue))"
        }
        if field.optionalWrapped != nil {
            return "try \(container).decodeIfPresent(field: .\(field.keyCase))"
        }
        return "try \(container).decode(field: .\(field.keyCase))"
    }

    private static func keysDeclaration(_ name: String, _ keys: [String]) -> DeclSyntax {
        let cases = keys.map { key in
            let identifier = CommandModel.caseIdentifier(key)
            return identifier == key ? "case \(identifier)" : "case \(identifier) = \"\(key)\""
        }
        return "private enum \(raw: name): String, CodingKey {\n\(raw: cases.joined(separator: "\n"))\n}"
    }

    private static func documentationLiteral(_ model: CommandModel) -> String {
        func fields(_ fields: [CommandModel.Field]) -> String {
            guard !fields.isEmpty else { return "[:]" }
            let entries = fields.map { field in
                "\(literal(field.key)): .init(summary: \(literal(field.summary)), defaultValue: \(literal(field.defaultValue)))"
            }
            return "[" + entries.joined(separator: ", ") + "]"
        }
        switch model.shape {
        case .fields(let list, _, let initializer):
            let labels = initializer.map { ", initializer: [" + $0.map { literal($0) }.joined(separator: ", ") + "]" } ?? ""
            return "KarcCommand.CommandDocumentation(summary: \(literal(model.summary)), fields: \(fields(list))\(labels))"
        case .cases(let cases):
            let entries = cases.map { item in
                "\(literal(item.name)): KarcCommand.CommandDocumentation(summary: \(literal(item.summary)), fields: \(fields(item.fields)))"
            }
            let map = entries.isEmpty ? "[:]" : "[" + entries.joined(separator: ", ") + "]"
            return "KarcCommand.CommandDocumentation(summary: \(literal(model.summary)), cases: \(map))"
        }
    }

    /// A Swift string literal of `text` (or `nil`).
    private static func literal(_ text: String?) -> String {
        guard let text else { return "nil" }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }
}
