import KarcLanguage
import KarcOutput

/// `:help [target[.command]]`: the targets and meta commands, a target's
/// commands, or a command's fields with their types and defaults.
enum MetaHelp: MetaCommand {
    static let name = "help"
    static let aliases = ["h", "?"]
    static let arguments = "[target[.command] | :meta]"
    static let summary = "targets, commands, fields with types and defaults"

    static let details = [
        ":help                      the targets, their commands, and the meta commands",
        ":help counter              counter's commands, with their fields",
        ":help counter.increment    its fields: types, defaults, the cases of an enum",
        ":help :state               a meta command, with examples",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        guard position == 0, let current = words.last else { return nil }
        if current.hasPrefix(":") { return MetaCompletions(candidates: MetaCommands.all.map { ":" + $0.name }) }
        guard let dot = current.firstIndex(of: ".") else { return MetaCompletions(candidates: context.targetNames, suffix: "") }
        guard let target = context.catalog.target(named: current[..<dot]) else { return nil }
        return MetaCompletions(candidates: target.commands.map { "\(current[..<dot]).\($0.name)" })
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let page = page(call, in: context) else { return .failed }
        context.renderer.emit(.help(page))
        return .succeeded
    }

    /// The page `call` asks for; nil when it said why there is none.
    private static func page(_ call: MetaCall, in context: MetaContext) -> HelpPage? {
        let catalog = context.cluster.catalog
        guard let topic = call.arguments.first else {
            return .overview(cluster: context.cluster.name, targets: catalog.targets, meta: MetaCommands.all.map(HelpPage.Meta.init))
        }
        if let extra = call.arguments.dropFirst().first {
            _ = context.fail(":help takes one topic (a target, target.command or :meta-command)", column: extra.column, in: call)
            return nil
        }
        if topic.value.hasPrefix(":") {
            let name = topic.value.dropFirst()
            guard let meta = MetaCommands.named(name) else {
                let names = MetaCommands.all.map { $0.name }
                _ = context.fail(
                    "no meta command ':\(name)'" + Names.didYouMean(name.lowercased(), among: names, prefix: ":") + " Meta commands: "
                        + names.map { ":\($0)" }.joined(separator: ", "), column: topic.column, in: call)
                return nil
            }
            return .meta(HelpPage.Meta(meta))
        }
        // Empty parts are kept (`.`, `...`, `.x`): each must still be answered, never trap.
        let parts = topic.value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let targetName = parts.first, !targetName.isEmpty else {
            let names = catalog.targets.map(\.name).joined(separator: ", ")
            _ = context.fail(
                "expected a target before '.' (like :help \(catalog.targets.first?.name ?? "target").command); targets: \(names)", in: call)
            return nil
        }
        do {
            let target = try context.builder.resolveTarget(Located(targetName, column: topic.column))
            guard parts.count == 2, let commandName = parts.last, !commandName.isEmpty else { return .target(target) }
            let command = try context.builder.resolveCommand(Located(commandName, column: topic.column + targetName.count + 1), in: target)
            return .command(target, command)
        } catch {
            _ = context.fail(error.message + elsewhere(parts, in: catalog), column: error.column, in: call)
            return nil
        }
    }

    /// A topic that is no target but names a meta command or a target's
    /// command (`:help state`, `:help increment`): the topics meant.
    private static func elsewhere(_ parts: [String], in catalog: Catalog) -> String {
        guard parts.count == 1, let name = parts.first else { return "" }
        var topics: [String] = []
        if MetaCommands.named(name) != nil { topics.append(":help :\(name.lowercased())") }
        for target in catalog.targets {
            if let command = target.command(named: name) { topics.append(":help \(target.name).\(command.name)") }
        }
        return topics.isEmpty ? "" : ". Did you mean \(topics.prefix(4).joined(separator: " or "))?"
    }
}

extension HelpPage.Meta {
    /// What `:help` tells of `meta`.
    init(_ meta: any MetaCommand.Type) {
        self.init(name: meta.name, head: meta.head, arguments: meta.arguments, summary: meta.summary, details: meta.details, aliases: meta.aliases)
    }
}
