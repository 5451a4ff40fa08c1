import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// A macro test: expands sources with its macros and records a failure at the caller's line.
protocol MacroExpansionTest {
    var macros: [String: MacroSpec] { get }
}

extension MacroExpansionTest {
    /// Expands `source` and compares with `expanded` and the `diagnostics`.
    func expand(_ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros, indentationWidth: .spaces(4)) {
            failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    }

    /// `source` with its macros expanded, as text: for a test that looks at one part of it.
    func expansion(of source: String) -> String {
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "test.swift")])
        return file.expand(
            macroSpecs: macros,
            contextGenerator: { BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts()) },
            indentationWidth: .spaces(4)
        ).description
    }
}
