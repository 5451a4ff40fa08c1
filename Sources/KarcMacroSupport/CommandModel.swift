import SwiftDiagnostics
import SwiftSyntax

/// What `@Command` reads off a declaration: its stored fields (a struct) or
/// its cases (an enum), each field's key, type, default and doc comment.
struct CommandModel {
    struct Field {
        /// The property name, or the case parameter's label (nil when unlabelled).
        let name: String
        let label: String?
        /// The coding key: the name, or `_0`, `_1`… for unlabelled case values (or a renamed key).
        let key: String
        let type: String?
        let defaultValue: String?
        let summary: String?
        /// The case of the keys enum that stands for the key (the property's name in `CodingKeys`).
        var caseName: String? = nil

        var keyCase: String { caseName ?? CommandModel.caseIdentifier(key) }

        /// `T` when the type is written `T?` or `Optional<T>`.
        var optionalWrapped: String? {
            guard let type else { return nil }
            if type.hasSuffix("?") { return String(type.dropLast()) }
            if type.hasPrefix("Optional<"), type.hasSuffix(">") { return String(type.dropFirst(9).dropLast()) }
            return nil
        }
    }

    struct Case {
        let name: String
        let fields: [Field]
        let summary: String?
    }

    enum Shape {
        /// A struct's stored fields, the name of its own `CodingKeys` when it
        /// declares them, and the labels of its initializer that takes each
        /// stored field (``CommandModel/initializer(of:)``).
        case fields([Field], keys: String?, initializer: [String]?)
        case cases([Case])
    }

    let shape: Shape
    let summary: String?
    /// `public `, `package ` or nothing: what the generated members need to satisfy `Decodable`.
    let access: String

    init?(_ declaration: some DeclGroupSyntax, diagnose: (CommandDiagnostic) -> Void) {
        access = Self.access(of: declaration.modifiers)
        summary = Documentation(declaration.leadingTrivia).summary
        if let structure = declaration.as(StructDeclSyntax.self) {
            let keys = Self.declaredKeys(in: structure.memberBlock)
            var fields = Self.storedFields(in: structure.memberBlock)
            // `@Command` records an initializer whose labels are the fields' names (CommandDocumentation.initializer).
            let initializer = Self.initializer(of: structure, stored: fields.map(\.name)).flatMap { parameters in
                parameters.allSatisfy { $0.label == $0.field } ? parameters.map(\.field) : nil
            }
            if let keys { fields = fields.filter { keys.names.contains($0.name) }.map { keys.renamed($0) } }
            shape = .fields(fields, keys: keys.map { _ in "CodingKeys" }, initializer: initializer)
        } else if let enumeration = declaration.as(EnumDeclSyntax.self) {
            let cases = Self.cases(in: enumeration.memberBlock)
            guard !cases.isEmpty else {
                diagnose(.noCases)
                return nil
            }
            shape = .cases(cases)
        } else {
            diagnose(.notAStructOrEnum)
            return nil
        }
    }

    static func access(of modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// Stored instance properties that `Decodable` decodes: not static, not
    /// lazy, not computed, not a `let` with a value (Swift does not decode those).
    static func storedFields(in members: MemberBlockSyntax) -> [Field] {
        var fields: [Field] = []
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let skipped = variable.modifiers.contains { [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind) }
            if skipped { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            let documentation = Documentation(variable.leadingTrivia)
            // `var a, b: Int`: the type written last applies to the names before it.
            var pendingType: String?
            var declared: [Field] = []
            for binding in variable.bindings.reversed() {
                if let type = binding.typeAnnotation?.type.trimmedDescription { pendingType = type }
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                if let accessors = binding.accessorBlock, !Self.onlyObservers(accessors) { continue }
                let value = binding.initializer?.value.trimmedDescription
                if isLet, value != nil { continue }
                let type = binding.typeAnnotation?.type.trimmedDescription ?? (value == nil ? pendingType : nil)
                let bare = name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
                declared.insert(Field(name: name, label: name, key: bare, type: type, defaultValue: value, summary: documentation.summary), at: 0)
            }
            fields += declared
        }
        return fields
    }

    /// One argument of the initializer a generated test writes a struct with:
    /// its label (nil for `_`) and the stored field it sets.
    struct InitializerParameter: Equatable {
        let label: String?
        let field: String
    }

    /// The initializer a generated test can write the struct with: one it
    /// declares that takes its stored fields in order under their names
    /// (not failable, throwing, async or private; one whose labels are the
    /// fields' names first), else, when it declares none, its memberwise
    /// initializer unless a stored field is private.
    static func initializer(of structure: StructDeclSyntax, stored: [String]) -> [InitializerParameter]? {
        let hidden: Set<TokenKind> = [.keyword(.private), .keyword(.fileprivate)]
        if structure.modifiers.contains(where: { hidden.contains($0.name.tokenKind) }) { return nil }
        let fields = stored.map(Self.bare)
        let declared = structure.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }
        guard declared.isEmpty else {
            var found: [[InitializerParameter]] = []
            for initializer in declared {
                let signature = initializer.signature
                guard initializer.optionalMark == nil, signature.effectSpecifiers == nil,
                    !initializer.modifiers.contains(where: { hidden.contains($0.name.tokenKind) })
                else { continue }
                let parameters = signature.parameterClause.parameters
                // The parameter's own name is the field it sets; its label is how a call names it.
                guard parameters.map({ Self.bare(($0.secondName ?? $0.firstName).text) }) == fields else { continue }
                found.append(
                    zip(parameters, fields).map { parameter, field in
                        InitializerParameter(
                            label: parameter.firstName.tokenKind == .wildcard ? nil : Self.bare(parameter.firstName.text), field: field)
                    })
            }
            return found.first { $0.allSatisfy { $0.label == $0.field } } ?? found.first
        }
        for member in structure.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
            else { continue }
            // A private stored property makes the memberwise initializer private.
            if variable.modifiers.contains(where: { hidden.contains($0.name.tokenKind) && $0.detail == nil }) { return nil }
        }
        return fields.map { InitializerParameter(label: $0, field: $0) }
    }

    /// A name without the backquotes a keyword is written with (`` `default` `` → `default`).
    static func bare(_ name: String) -> String {
        name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
    }

    /// Whether a property's accessors are only `willSet`/`didSet` (it is stored).
    private static func onlyObservers(_ block: AccessorBlockSyntax) -> Bool {
        guard case .accessors(let accessors) = block.accessors else { return false }
        return accessors.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
    }

    /// A struct's own `enum CodingKeys`: which properties it decodes, under which keys.
    private static func declaredKeys(in members: MemberBlockSyntax) -> DeclaredKeys? {
        for member in members.members {
            guard let keys = member.decl.as(EnumDeclSyntax.self), keys.name.text == "CodingKeys" else { continue }
            var renames: [String: String] = [:]
            for item in keys.memberBlock.members {
                guard let cases = item.decl.as(EnumCaseDeclSyntax.self) else { continue }
                for element in cases.elements {
                    let raw = element.rawValue?.value.as(StringLiteralExprSyntax.self)?.representedLiteralValue
                    renames[element.name.text] = raw ?? element.name.text
                }
            }
            return DeclaredKeys(keys: renames)
        }
        return nil
    }

    struct DeclaredKeys {
        /// Case name → coding key.
        let keys: [String: String]
        var names: Set<String> { Set(keys.keys) }

        func renamed(_ field: Field) -> Field {
            // The case is named after the property; its key may be renamed.
            var renamed = Field(
                name: field.name, label: field.label, key: keys[field.name] ?? field.name, type: field.type,
                defaultValue: field.defaultValue, summary: field.summary)
            renamed.caseName = field.name
            return renamed
        }
    }

    private static func cases(in members: MemberBlockSyntax) -> [Case] {
        var cases: [Case] = []
        for member in members.members {
            guard let declaration = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            let documentation = Documentation(declaration.leadingTrivia)
            for element in declaration.elements {
                var fields: [Field] = []
                for (index, parameter) in (element.parameterClause?.parameters ?? []).enumerated() {
                    let label = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text }
                    let key = label ?? "_\(index)"
                    fields.append(
                        Field(
                            name: key, label: label, key: key, type: parameter.type.trimmedDescription,
                            defaultValue: parameter.defaultValue?.value.trimmedDescription,
                            summary: documentation.parameters[key]))
                }
                cases.append(Case(name: element.name.text, fields: fields, summary: documentation.summary))
            }
        }
        return cases
    }

    /// A key as an enum case name: itself, or backquoted when it is a keyword.
    static func caseIdentifier(_ key: String) -> String {
        let keywords: Set<String> = [
            "default", "case", "class", "struct", "enum", "func", "let", "var", "in", "is", "as", "return", "self", "Self", "init", "import",
            "protocol", "extension", "where", "while", "for", "if", "else", "switch", "repeat", "do", "catch", "throw", "try", "nil", "true", "false",
            "static", "public", "private", "internal", "operator", "subscript", "typealias", "associatedtype", "inout", "guard", "defer", "break",
            "continue", "fallthrough", "deinit",
        ]
        return keywords.contains(key) ? "`\(key)`" : key
    }
}

/// A doc comment (`///` lines or a `/** */` block): its first paragraph,
/// and `- Parameter name: text` lines.
struct Documentation {
    var summary: String?
    var parameters: [String: String] = [:]

    init(_ trivia: Trivia) {
        var lines: [String] = []
        for piece in trivia {
            switch piece {
            case .docLineComment(let text):
                lines.append(String(text.dropFirst(3)).trimmingSpaces)
            case .docBlockComment(let text):
                let body = text.dropFirst(3).dropLast(2)
                lines += body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    var line = String(line).trimmingSpaces
                    if line.hasPrefix("*") { line = String(line.dropFirst()).trimmingSpaces }
                    return line
                }
            default:
                continue
            }
        }
        var paragraph: [String] = []
        var summaryEnded = false
        for line in lines {
            if line.hasPrefix("- Parameter ") {
                let rest = line.dropFirst("- Parameter ".count)
                if let colon = rest.firstIndex(of: ":") {
                    parameters[String(rest[..<colon]).trimmingSpaces] = String(rest[rest.index(after: colon)...]).trimmingSpaces
                }
            }
            // The summary is the first paragraph: it ends at a blank line or a callout.
            if line.isEmpty || line.hasPrefix("- ") || line.hasPrefix("```") {
                if !paragraph.isEmpty { summaryEnded = true }
                continue
            }
            if !summaryEnded { paragraph.append(line) }
        }
        summary = paragraph.isEmpty ? nil : paragraph.joined(separator: " ")
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}

enum CommandDiagnostic: String, DiagnosticMessage {
    case notAStructOrEnum
    case noCases

    var message: String {
        switch self {
        case .notAStructOrEnum: "@Command applies to a struct or an enum (the type of a command)"
        case .noCases: "@Command on an enum needs at least one case"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "KarcCommand", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}
