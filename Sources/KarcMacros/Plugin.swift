import KarcMacroSupport
import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct KarcMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [CommandMacro.self, MemberwiseMacro.self, CheckedSendableMacro.self]
}

// The compiler asks for a macro by its module and type name
// (`#externalMacro(module: "KarcMacros", type: "CommandMacro")`), so each is
// named in this module. Their expansions live in `KarcMacroSupport`, an
// ordinary module: a test target that depends on a macro target makes
// SwiftPM build every test and its dependencies a second time, for the host.
final class CommandMacro: KarcMacroSupport.CommandMacro {}
final class MemberwiseMacro: KarcMacroSupport.MemberwiseMacro {}
final class CheckedSendableMacro: KarcMacroSupport.CheckedSendableMacro {}
