import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Memberwise`: the struct's initializer that takes each stored field,
/// recorded as `MemberwiseInitializable`, for the tests `karc export-test`
/// writes. It reads the declaration as `@Command` reads a command's
/// (``CommandModel/initializer(of:stored:)``), so a state and a command
/// are written the same way.
open class MemberwiseMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structure = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: MemberwiseDiagnostic.notAStruct))
            return []
        }
        let stored = CommandModel.storedFields(in: structure.memberBlock).map(\.name)
        guard let parameters = CommandModel.initializer(of: structure, stored: stored) else {
            // Silence would leave the type written as JSON with nobody told why.
            context.diagnose(Diagnostic(node: node, message: MemberwiseDiagnostic.noInitializer(structure.name.text, stored.map(CommandModel.bare))))
            return []
        }
        // Already conforming (a declaration of its own, or the attribute twice): nothing to add.
        guard !protocols.isEmpty else { return [] }
        let entries = parameters.map { parameter in
            "KarcCommand.MemberwiseInitializer.Parameter(label: \(parameter.label.map { "\"\($0)\"" } ?? "nil"), field: \"\(parameter.field)\")"
        }
        let list = entries.isEmpty ? "[]" : "[\(entries.joined(separator: ", "))]"
        return [
            try ExtensionDeclSyntax(
                """
                extension \(type.trimmed): KarcCommand.MemberwiseInitializable {
                    \(raw: CommandModel.access(of: structure.modifiers))static var memberwiseInitializer: KarcCommand.MemberwiseInitializer {
                        KarcCommand.MemberwiseInitializer(\(raw: list))
                    }
                }
                """)
        ]
    }
}

enum MemberwiseDiagnostic: DiagnosticMessage {
    case notAStruct
    case noInitializer(String, [String])

    var message: String {
        switch self {
        case .notAStruct:
            "@Memberwise applies to a struct (an enum's cases are written as Swift without it)"
        case .noInitializer(let name, let fields):
            "@Memberwise: \(name) has no initializer that takes each stored field in order (\(fields.joined(separator: ", "))): "
                + "declaring an initializer takes the memberwise one away, and a private field makes it private; declare init(\(fields.map { "\($0):" }.joined()))"
        }
    }

    var diagnosticID: MessageID {
        switch self {
        case .notAStruct: MessageID(domain: "KarcCommand", id: "memberwiseNotAStruct")
        case .noInitializer: MessageID(domain: "KarcCommand", id: "memberwiseNoInitializer")
        }
    }

    var severity: DiagnosticSeverity { .error }
}
