import Foundation
import KarcAsync
import KarcShellTrellis
import KarcSynchronization
import Testing
import Trellis

@testable import KarcLanguage
@testable import KarcSession
@testable import KarcTrace

/// Every command says something, and its output is its own: a command that
/// changed nothing says so, a setting switched is confirmed and one asked
/// for is shown, and with `--json` each line carries its command's number
/// and each command ends with a `done` line.
@Suite("Command output: every command answers, every line is its command's", .timeLimit(.minutes(1)))
struct CommandOutputTests {
    enum Shelf: Action, Codable, Equatable {
        case put(item: String)
        case look
    }

    struct Items: Equatable, Sendable {
        var items: [String] = []
    }

    func shelf() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Items.self)
                .mutate(on: Shelf.self) { state, action, _ in
                    if case .put(let item) = action { state.items.append(item) }
                }
                .with(model: Items())
                .named("shelf")
        }
        return ClusterShell(name: "shelf", cluster: cluster)
    }

    var plain: ShellOptions { .plain(keepGoing: true) }

    var json: ShellOptions {
        var options = ShellOptions()
        options.printing.json = true
        options.keepGoing = true
        return options
    }

    func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func aCommandThatChangedNothingSaysSo() async throws {
        let run = try await Transcript.run(try await shelf(), ["shelf.put item=book", "shelf.look"], options: plain)
        #expect(
            run.output == """
                state  shelf:
                  - CommandOutputTests.Items(items: [])
                  + CommandOutputTests.Items(
                  +   items: [
                  +     [0]: "book"
                  +   ]
                  + )
                ok (no changes)

                """)
    }

    @Test func nothingIsSaidOfChangesWhenTheyAreNotPrintedButQuietStillSaysIt() async throws {
        var quiet = plain
        quiet.printing.quiet = true
        #expect(try await Transcript.run(try await shelf(), ["shelf.look"], options: quiet).output == "ok (no changes)\n", "a fact, not a notice")
        var off = plain
        off.printing.diff = .off
        #expect(try await Transcript.run(try await shelf(), ["shelf.look"], options: off).output == "")
    }

    @Test func aSwitchedSettingIsConfirmedAndOneAskedForIsShown() async throws {
        let run = try await Transcript.run(
            try await shelf(), [":timing", ":timing on", ":timing", ":diff", ":diff summary", ":events", ":events mute Tick Tock", ":events"],
            options: plain)
        #expect(run.errors == "")
        #expect(
            run.output == """
                timing off: commands' times are not printed (:timing on)
                timing on: each command's time is printed after it
                timing on: each command's time is printed after it
                diff on: changes of state print as diffs
                diff summary: a changed target prints one line, with how many of its parts changed
                events on: every event is printed
                events mute Tick, Tock: every other event is printed
                events mute Tick, Tock: every other event is printed

                """)
    }

    @Test func quietLeavesOutConfirmationsButNotWhatWasAskedFor() async throws {
        var quiet = plain
        quiet.printing.quiet = true
        let run = try await Transcript.run(try await shelf(), [":timing on", ":diff off", ":diff"], options: quiet)
        #expect(run.output == "diff off: changes of state are not printed (:diff on)\n")
    }

    @Test func aSettingIsAJSONLineWithItsNameAndValue() async throws {
        let run = try await Transcript.run(try await shelf(), [":events only Tick", ":diff"], options: json)
        let settings = try objects(run.output).filter { $0["kind"] as? String == "setting" }
        #expect(settings.map { $0["name"] as? String } == ["events", "diff"])
        #expect(settings.map { $0["value"] as? String } == ["only", "on"])
        #expect(settings.first?["types"] as? [String] == ["Tick"])
    }

    @Test func everyJSONLineCarriesItsCommandsNumberAndEachCommandEndsWithDone() async throws {
        let run = try await Transcript.run(
            try await shelf(), ["shelf.put item=book", "", "# a comment", "shelf.look", "shelf.bogus", ":state"], options: json)
        let lines = try objects(run.output)
        #expect(lines.map { $0["kind"] as? String } == ["state", "done", "done", "error", "done", "snapshot", "done"])
        #expect(lines.map { $0["seq"] as? Int } == [1, 1, 2, 3, 3, 4, 4], "blank lines and comments are not commands")
        #expect(lines.filter { $0["kind"] as? String == "done" }.map { $0["outcome"] as? String } == ["ok", "ok", "error", "ok"])
    }

    @Test func historyListsEveryCommandLineNumberedAsJSONTooAndNotItself() async throws {
        let readable = try await Transcript.run(try await shelf(), ["shelf.put item=book", ":timing on", "shelf.bogus", ":history"], options: plain)
        #expect(
            readable.output.hasSuffix(
                """
                    1  ok     shelf.put item=book
                    2  ok     :timing on
                    3  error  shelf.bogus

                """), "\(readable.output)")
        let run = try await Transcript.run(try await shelf(), ["shelf.put item=book", ":history"], options: json)
        let entries = try objects(run.output).filter { $0["kind"] as? String == "history" }
        #expect(entries.count == 1)
        #expect(entries.first?["number"] as? Int == 1)
        #expect(entries.first?["line"] as? String == "shelf.put item=book")
        #expect(entries.first?["outcome"] as? String == "ok")
        #expect(entries.first?["seq"] as? Int == 2, "printed by the second command")
    }

    @Test func helpIsOneJSONObjectAPage() async throws {
        let run = try await Transcript.run(try await shelf(), [":help", ":help shelf", ":help shelf.put", ":help :diff"], options: json)
        let pages = try objects(run.output).filter { $0["kind"] as? String == "help" }
        #expect(pages.count == 4)
        let targets = try #require(pages[0]["targets"] as? [[String: Any]])
        #expect(targets.first?["name"] as? String == "shelf")
        #expect(targets.first?["commands"] as? [String] == ["put", "look"])
        #expect((pages[0]["meta"] as? [[String: Any]])?.first?["name"] as? String == "help")
        #expect((pages[1]["commands"] as? [[String: Any]])?.map { $0["name"] as? String } == ["put", "look"])
        #expect(pages[2]["command"] as? String == "put")
        #expect((pages[2]["fields"] as? [[String: Any]])?.first?["type"] as? String == "String")
        #expect(pages[3]["meta"] as? String == "diff")
        #expect((pages[3]["details"] as? [String])?.isEmpty == false)
    }

    @Test func helpForAMetaCommandExplainsItAndAMisspeltOneIsNamed() async throws {
        let run = try await Transcript.run(try await shelf(), [":help :state", ":help :stat"], options: plain)
        #expect(run.output.hasPrefix(":state [target [path]]\n  the current state of every target"))
        #expect(run.output.contains("  :state articles items[0]"))
        #expect(run.errors.hasPrefix("<test>:2:7: error: no meta command ':stat'; did you mean ':state'?"), "\(run.errors)")
    }

    @Test func helpCompletesMetaCommandNames() {
        let completer = Completer(catalog: Catalog(targets: []))
        #expect(completer.complete(":help :sta").insert == "te ")
    }

    // MARK: Changes no command of this session made

    /// A cluster whose state a timer changed before the first command, and
    /// whose command changes it again.
    final class Ticking: ShellCluster {
        struct Clock: Equatable, Sendable { var ticks: Int }
        struct Tick: Codable, Sendable {}
        private let pending = KarcMutex<[ShellRecord]>([
            .stateChanged(target: "clock", old: Clock(ticks: 0), new: Clock(ticks: 1))
        ])
        let elsewhere: String
        init(elsewhere: String = "the app") { self.elsewhere = elsewhere }
        var name: String { "ticking" }
        var catalog: Catalog { Catalog(targets: [TargetSchema(name: "clock", kind: "store", commands: [CommandSchema(Tick.self)])]) }
        func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? {
            pending.withLock { $0.append(.stateChanged(target: "clock", old: Clock(ticks: 1), new: Clock(ticks: 2))) }
            return nil
        }
        func takeRecords() -> [ShellRecord] {
            pending.withLock { records in
                defer { records = [] }
                return records
            }
        }
        func settled(timeout: Duration) async -> Bool { true }
        func state(of target: String) async -> (any Sendable)? { nil }
        var changesFromElsewhere: String { elsewhere }
    }

    @Test func aChangeNoCommandOfThisSessionMadeSaysWhoMadeIt() async throws {
        let run = try await Transcript.run(Ticking(), ["clock.tick"], options: plain)
        #expect(
            run.output == """
                state  clock (by the app):
                  - CommandOutputTests.Ticking.Clock(ticks: 0)
                  + CommandOutputTests.Ticking.Clock(ticks: 1)
                state  clock:
                  - CommandOutputTests.Ticking.Clock(ticks: 1)
                  + CommandOutputTests.Ticking.Clock(ticks: 2)

                """, "the command's own change has no note")
        let json = try objects(try await Transcript.run(Ticking(elsewhere: "another shell"), ["clock.tick"], options: json).output)
        let states = json.filter { $0["kind"] as? String == "state" }
        #expect(states.map { $0["by"] as? String } == ["another shell", nil])
        #expect(states.first?["seq"] == nil, "it is not the command's")
    }
}
