import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct KarcMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [CommandMacro.self, MemberwiseMacro.self, CheckedSendableMacro.self]
}
