import Foundation
import KarcShellTrellis
import Testing
import Trellis

@testable import KarcLanguage
@testable import KarcSession

/// The table of meta commands is the one list: what `:help` shows, what
/// Tab completes, what runs and what a saved script keeps all follow it.
@Suite("Meta commands: one table", .timeLimit(.minutes(1)))
struct MetaCommandTableTests {
    struct Tally: Equatable, Sendable { var count = 0 }
    enum Bump: Action, Codable, Equatable { case once }

    func shell() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: Bump.self) { tally, _, _ in tally.count += 1 }
                .with(model: Tally())
                .named("tally")
        }
        return ClusterShell(name: "table", cluster: cluster)
    }

    @Test func helpListsEveryEntryInTableOrder() async throws {
        let run = try await Transcript.run(try await shell(), [":help"])
        let listed = run.output.split(separator: "\n").drop { !$0.hasPrefix("Meta commands") }.dropFirst().map(String.init)
        #expect(listed.map { $0.split(separator: " ").first.map(String.init) } == MetaCommands.all.map { ":" + $0.name })
        #expect(listed.first == "  :help [target[.command] | :meta]    targets, commands, fields with types and defaults")
        #expect(listed.last == "  :quit                               leave the shell (also :exit, :q, Ctrl-D)")
        let summaryColumns = zip(listed, MetaCommands.all).map { line, command in line.count - command.summary.count }
        #expect(Set(summaryColumns).count == 1, "the summaries line up: \(listed)")
    }

    @Test func tabCompletesEveryNameInTheTable() {
        let completer = Completer(catalog: Catalog(targets: []))
        for command in MetaCommands.all {
            let typed = ":" + command.name
            let offered = completer.complete(typed)
            // A unique name completes with a space; a name that is the prefix of another lists both.
            #expect(offered.insert == " " || offered.candidates.contains(typed), "\(typed): \(offered)")
        }
    }

    @Test func everyNameAndAliasRunsItsEntryInAnyCase() {
        for command in MetaCommands.all {
            for name in [command.name] + command.aliases {
                #expect(MetaCommands.named(name)?.name == command.name)
                #expect(MetaCommands.named(name.uppercased())?.name == command.name)
            }
        }
        #expect(MetaCommands.named("stat") == nil)
        #expect(MetaCommands.named("") == nil)
    }

    @Test func anUnknownNameListsTheTable() async throws {
        let run = try await Transcript.run(try await shell(), [":stat"])
        #expect(run.status == 1)
        let names = MetaCommands.all.map { ":" + $0.name }.joined(separator: ", ")
        #expect(run.errors.contains("unknown meta command ':stat'; did you mean ':state'? Meta commands: \(names)"), "\(run.errors)")
    }

    @Test func aSavedScriptKeepsWhatTheTableReplays() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karc-table-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("saved.karc").path
        let test = directory.appendingPathComponent("Replay.swift").path
        var options = ShellOptions()
        options.testExport.factory = "makeCluster()"
        let run = try await Transcript.run(
            try await shell(), ["tally.once", ":state tally", ":export-test \(test)", ":timing off", ":save \(script)"],
            options: options)
        #expect(run.status == 0, "\(run.errors)\n\(run.output)")
        let saved = try String(contentsOfFile: script, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        // Replaying :export-test would write the test again (and fail without --test-factory); :save would overwrite the script.
        #expect(saved == ["tally.once", ":state tally", ":timing off"])
    }

    @Test func fileArgumentsCompleteToPaths() throws {
        let directory = NSTemporaryDirectory() + "karc-table-paths-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/scripts", withIntermediateDirectories: true)
        let completer = Completer(catalog: Catalog(targets: []))
        for meta in [":save", ":export-test", ":source"] {
            #expect(completer.complete("\(meta) \(directory)/scr") == .init(insert: "ipts/", candidates: []), "\(meta)")
        }
        #expect(completer.complete(":save x.karc --w") == .init(insert: "ith-failures ", candidates: []))
        #expect(completer.complete(":export-test x.swift y") == .init(insert: "", candidates: []))
    }
}
