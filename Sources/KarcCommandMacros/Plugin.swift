import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct KarcCommandMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [CommandMacro.self]
}
