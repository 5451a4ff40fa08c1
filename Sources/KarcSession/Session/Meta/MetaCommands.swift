import KarcHistory
import KarcLanguage
import KarcOutput

/// The table of meta commands: what runs `:NAME`, what `:help` lists (in
/// this order), what Tab completes and what `:save` keeps.
enum MetaCommands {
    static let all: [any MetaCommand.Type] = [
        MetaHelp.self, MetaState.self, MetaAssert.self, MetaHistory.self, MetaEvents.self, MetaWait.self, MetaSleep.self, MetaTiming.self,
        MetaDiff.self, MetaTrace.self, MetaSeq.self, MetaWatch.self, MetaUnwatch.self, MetaBlame.self, MetaReset.self,
        MetaSnapshot.self, MetaSnapshots.self, MetaRestore.self, MetaUndo.self,
        MetaSource.self, MetaSave.self, MetaExportTest.self, MetaExportDiagram.self, MetaQuit.self,
    ]

    /// The meta command `name` runs, by its name or an alias, in any case.
    static func named(_ name: some StringProtocol) -> (any MetaCommand.Type)? {
        let key = name.lowercased()
        return all.first { $0.name == key || $0.aliases.contains(key) }
    }
}

extension ShellSession {
    /// Runs the meta command `name` names, or says which there are.
    func meta(_ name: Located<String>, _ arguments: [Located<String>], at location: Location) async -> Outcome {
        guard let command = MetaCommands.named(name.value) else {
            let names = MetaCommands.all.map { $0.name }
            let message =
                "unknown meta command ':\(name.value)'" + Names.didYouMean(name.value.lowercased(), among: names, prefix: ":")
                + " Meta commands: " + names.map { ":\($0)" }.joined(separator: ", ")
            return fail(message, column: name.column, at: location)
        }
        return await command.run(MetaCall(name: name, arguments: arguments, location: location), in: self)
    }

    /// Prints `message` as an error at `call`'s line, pointing at `column` (the call's, unless given).
    func fail(_ message: String, column: Int? = nil, in call: MetaCall, outcome: Outcome = .failed) -> Outcome {
        fail(message, column: column ?? call.column, at: call.location, outcome: outcome)
    }
}
