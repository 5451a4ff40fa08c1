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
        MetaSource.self, MetaSave.self, MetaExportTest.self, MetaExportDiagram.self, MetaInspect.self, MetaQuit.self,
    ]

    /// The meta command `name` runs, by its name or an alias, in any case.
    static func named(_ name: some StringProtocol) -> (any MetaCommand.Type)? {
        let key = name.lowercased()
        return all.first { $0.name == key || $0.aliases.contains(key) }
    }
}
