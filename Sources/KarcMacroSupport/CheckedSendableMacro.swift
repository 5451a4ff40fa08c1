import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@CheckedSendable`: a `Model` or `Domain` subclass's `Sendable`
/// conformance, written only when its stored properties allow it.
///
/// Swift cannot check a subclass of a non-final class for `Sendable`, so the
/// conformance has to be restated `@unchecked`. This macro restates it after
/// checking what the compiler would: every stored `var` is one that cannot
/// race (`@Observed`, isolated to a global actor such as `@MainActor`, or
/// `nonisolated(unsafe)` by the user's own word), and every stored `let` is
/// of a `Sendable` type, which the compiler checks through a key path to it
/// in the generated extension (`_checkSendable(\Type.name)`).
open class CheckedSendableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let classDeclaration = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: CheckedSendableMessage.notAClass))
            return []
        }
        var checked: [String] = []
        var failed = false
        for variable in storedVariables(in: classDeclaration.memberBlock.members) {
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            if !isLet {
                guard isSafeVar(variable) else {
                    for binding in variable.bindings {
                        let name = binding.pattern.trimmedDescription
                        context.diagnose(
                            Diagnostic(node: binding.pattern, message: CheckedSendableMessage.racingVar(name, type: classDeclaration.name.text)))
                    }
                    failed = true
                    continue
                }
                continue  // isolated or locked: its value's Sendable-ness is the wrapper's or the actor's concern
            }
            for binding in variable.bindings {
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                    context.diagnose(Diagnostic(node: binding.pattern, message: CheckedSendableMessage.destructuring))
                    failed = true
                    continue
                }
                checked.append(identifier.identifier.trimmedDescription)
            }
        }
        guard !failed else { return [] }
        let typeName = classDeclaration.name.text
        let checks = checked.map { "Karc._checkSendable(\\\(typeName).\($0))" }.joined(separator: "\n")
        return [
            try ExtensionDeclSyntax(
                """
                extension \(type.trimmed): @unchecked Sendable {
                    /// Compiled, never called: each stored `let` is of a `Sendable` type.
                    private static func _checkSendableProperties() {
                        \(raw: checks)
                    }
                }
                """)
        ]
    }

    /// The stored instance properties declared in a class body (also inside `#if` blocks).
    private static func storedVariables(in members: MemberBlockItemListSyntax) -> [VariableDeclSyntax] {
        var found: [VariableDeclSyntax] = []
        for member in members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                if isInstance(variable), variable.bindings.contains(where: isStored) { found.append(variable) }
            } else if let conditional = member.decl.as(IfConfigDeclSyntax.self) {
                for clause in conditional.clauses {
                    if case .decls(let nested)? = clause.elements { found += storedVariables(in: nested) }
                }
            }
        }
        return found
    }

    private static func isInstance(_ variable: VariableDeclSyntax) -> Bool {
        !variable.modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    /// Stored: no accessors, or only observers (`willSet`/`didSet`).
    private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let accessors = binding.accessorBlock?.accessors else { return true }
        switch accessors {
        case .getter:
            return false
        case .accessors(let list):
            return list.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
        }
    }

    /// A `var` nothing can race on: behind `Observed`'s lock, isolated to a
    /// global actor (by convention named `…Actor`), or `nonisolated(unsafe)`.
    private static func isSafeVar(_ variable: VariableDeclSyntax) -> Bool {
        if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) && $0.detail?.detail.text == "unsafe" }) {
            return true
        }
        return variable.attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            let name = attribute.attributeName.trimmedDescription
            let last = name.split(separator: ".").last.map(String.init) ?? name
            return last == "Observed" || last.hasSuffix("Actor")
        }
    }
}

enum CheckedSendableMessage: DiagnosticMessage {
    case notAClass
    case racingVar(String, type: String)
    case destructuring

    var message: String {
        switch self {
        case .notAClass:
            "@CheckedSendable applies to a class (a Model or Domain subclass); a struct or enum is checked by the compiler itself"
        case .racingVar(let name, let type):
            "stored 'var \(name)' makes '\(type)' not Sendable: any task may read it while the model writes it. Keep it in '@Observed' (a lock), "
                + "isolate it to a global actor ('@MainActor', and receive states through 'MainActorObserver'), or make it a 'let'"
        case .destructuring:
            "@CheckedSendable checks each stored 'let' by name: declare one property per 'let' instead of a destructuring pattern"
        }
    }

    var diagnosticID: MessageID {
        switch self {
        case .notAClass: MessageID(domain: "CheckedSendable", id: "notAClass")
        case .racingVar: MessageID(domain: "CheckedSendable", id: "racingVar")
        case .destructuring: MessageID(domain: "CheckedSendable", id: "destructuring")
        }
    }
    var severity: DiagnosticSeverity { .error }
}
