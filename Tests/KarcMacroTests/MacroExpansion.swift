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
}
