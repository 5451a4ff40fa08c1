import KarcLanguage

/// `:help [target[.command]]`: the targets and meta commands, a target's
/// commands, or a command's fields with their types and defaults.
enum MetaHelp: MetaCommand {
    static let name = "help"
    static let aliases = ["h", "?"]
    static let arguments = "[target[.command]]"
    static let summary = "targets, commands, fields with types and defaults"

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        guard position == 0, let current = words.last else { return nil }
        guard let dot = current.firstIndex(of: ".") else { return MetaCompletions(candidates: context.targetNames, suffix: "") }
        guard let target = context.catalog.target(named: current[..<dot]) else { return nil }
        return MetaCompletions(candidates: target.commands.map { "\(current[..<dot]).\($0.name)" })
    }

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        let (catalog, renderer) = (session.cluster.catalog, session.renderer)
        guard let topic = call.arguments.first else {
            renderer.log("Targets of \(session.cluster.name) (send with TARGET.COMMAND field=value …):")
            for target in catalog.targets {
                let commands = target.commands.map(\.name).joined(separator: ", ")
                let note = target.hiddenNote.map { commands.isEmpty ? $0 : "; \($0)" } ?? ""
                renderer.log("  \(target.name) (\(target.kind)): " + commands + note)
            }
            renderer.log("Meta commands:")
            for meta in MetaCommands.all { renderer.log("  " + meta.usage) }
            return .succeeded
        }
        // Empty parts are kept (`.`, `...`, `.x`): each must still be answered, never trap.
        let parts = topic.value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let targetName = parts.first, !targetName.isEmpty else {
            let names = catalog.targets.map(\.name).joined(separator: ", ")
            return session.fail(
                "expected a target before '.' (like :help \(catalog.targets.first?.name ?? "target").command); targets: \(names)", in: call)
        }
        let target: TargetSchema
        do {
            target = try session.builder.resolveTarget(Located(targetName, column: topic.column))
        } catch {
            return session.fail(error.message, column: error.column, in: call)
        }
        guard parts.count == 2, let commandName = parts.last, !commandName.isEmpty else {
            renderer.log("\(target.name) (\(target.kind)):")
            for command in target.commands {
                renderer.log("  \(target.name).\(command.synopsis)" + (command.summary.map { "  — \($0)" } ?? ""))
            }
            if let note = target.hiddenNote { renderer.log("  \(note)") }
            return .succeeded
        }
        let command: CommandSchema
        do {
            command = try session.builder.resolveCommand(Located(commandName, column: topic.column + targetName.count + 1), in: target)
        } catch {
            return session.fail(error.message, column: error.column, in: call)
        }
        describe(command, of: target, to: renderer)
        return .succeeded
    }

    private static func describe(_ command: CommandSchema, of target: TargetSchema, to renderer: Renderer) {
        renderer.log("\(target.name).\(command.synopsis)")
        if let summary = command.summary { renderer.log("  \(summary)") }
        guard let fields = command.fields else {
            renderer.log("  fields: a JSON object decoded as \(command.typeName)")
            return
        }
        for field in fields {
            var line = "  \(Names.kebab(field.name))  \(field.type)"
            line += field.isRequired ? "  required" : "  optional" + (field.defaultValue.map { ", default \($0)" } ?? "")
            if case .choice(let choice) = field.type { line += "; one of \(choice.cases.joined(separator: ", "))" }
            if let help = field.help { line += "  — \(help)" }
            renderer.log(line)
            for nested in field.fields ?? [] {
                let requirement = nested.isRequired ? "required" : "optional"
                renderer.log(
                    "    \(Names.kebab(field.name)).\(Names.kebab(nested.name))  \(nested.type)  \(requirement)"
                        + (nested.help.map { "  — \($0)" } ?? ""))
            }
        }
    }
}
