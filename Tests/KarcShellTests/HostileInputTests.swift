import Foundation
import KarcShellTrellis
import TestSupport
import Testing
import Trellis

@testable import KarcLanguage
@testable import KarcSession

/// Input that is not what it should be: every line is answered (a clear
/// error at worst), nothing traps, and a stray quote costs one command.
@Suite("Hostile input: no line traps the shell", .timeLimit(.minutes(1)))
struct HostileInputTests {
    enum Tick: Action, Codable, Equatable {
        case add(by: Int)
        case rename(String)
    }

    struct Counter: Equatable, Sendable {
        var total = 0
        var items: [String] = []
        var name = ""
    }

    func counter() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Counter.self)
                .mutate(on: Tick.self) { counter, tick, _ in
                    switch tick {
                    case .add(let by):
                        counter.total &+= by
                        counter.items.append("\(by)")
                    case .rename(let name): counter.name = name
                    }
                }
                .with(model: Counter())
                .named("counter")
        }
        return ClusterShell(name: "fuzz", cluster: cluster)
    }

    @Test(arguments: [":help .", ":help ...", ":help .add", ":help ..add", ":HELP ."])
    func aHelpTopicOfDotsIsAnErrorThatNamesTheTargets(_ line: String) async throws {
        let run = try await Transcript.run(try await counter(), [line])
        #expect(run.status == 1)
        #expect(run.errors.contains("expected a target before '.'"))
        #expect(run.errors.contains("targets: counter"))
    }

    @Test func aSecondHelpTopicIsPointedAt() async throws {
        let run = try await Transcript.run(try await counter(), [":help . ."])
        #expect(run.errors == "<test>:1:9: error: :help takes one topic (a target, target.command or :meta-command)\n")
    }

    @Test func aHelpTopicEndingInADotShowsTheTarget() async throws {
        let run = try await Transcript.run(try await counter(), [":help counter."])
        #expect(run.status == 0)
        #expect(run.output.contains("counter.add by=Int"))
    }

    @Test func aStateWithTooManyArgumentsPointsAtTheFirstExtraOne() async throws {
        let run = try await Transcript.run(try await counter(), [":state counter items extra more"])
        #expect(run.errors == "<test>:1:22: error: :state takes a target and at most one path\n")
    }

    /// Every meta command and command with arguments from the edge cases:
    /// the session answers each and is still usable after them all.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func thousandsOfHostileLinesAreEachAnsweredAndTheSessionGoesOn(_ seed: UInt64) async throws {
        let shell = try await counter()
        var options = ShellOptions()
        options.keepGoing = true
        options.timeout = .milliseconds(20)
        let lines = Array(HostileLines(seed: seed, count: 1_500, targets: ["counter"], commands: ["counter.add", "counter.rename"]))
        let run = try await Transcript.run(shell, lines + ["\"", "counter.rename _0=done"], options: options)
        // A stray quote before the last line is one command's error, not the end of the script.
        #expect(run.errors.contains("unterminated string"))
        // On a loaded machine the rename may outlast its 20 ms and the second the script's end waits: it is sent all the same.
        // Polls: the rename was sent in the background by a script that already ended.
        #expect(
            await eventually(within: .seconds(10)) { (await shell.state(of: "counter") as? Counter)?.name == "done" },
            "\(run.errors.split(separator: "\n").suffix(3).joined(separator: "\n"))")
        let after = try await Transcript.run(shell, ["counter.add by=5"])
        #expect(after.status == 0)
        #expect(after.errors == "")
    }

    func total(_ shell: ClusterShell) async -> Int { (await shell.state(of: "counter") as? Counter)?.total ?? -1 }

    // MARK: A stray quote or bracket costs one command

    @Test func aStrayQuoteInAScriptFailsItsLineAndTheRestRuns() async throws {
        let shell = try await counter()
        var options = ShellOptions()
        options.keepGoing = true
        let run = try await Transcript.run(shell, ["counter.rename _0=\"oops"] + Array(repeating: "counter.add by=1", count: 30), options: options)
        #expect(run.status == 1)
        #expect(
            run.errors
                == "<test>:1:19: error: unterminated string: the '\"' at line 1, column 19 is still open at the end of the input"
                + " (add a closing '\"'); line 1 is skipped, and reading goes on at line 2\n")
        #expect(await total(shell) == 30)
    }

    @Test func withoutKeepGoingTheScriptStopsAtTheStrayQuote() async throws {
        let shell = try await counter()
        let run = try await Transcript.run(shell, ["counter.add by=1", "counter.rename _0=\"oops", "counter.add by=1"])
        #expect(run.status == 1)
        #expect(await total(shell) == 1)
    }

    @Test func aQuoteClosedOnALaterLineIsOneCommand() async throws {
        let shell = try await counter()
        let run = try await Transcript.run(shell, ["counter.rename _0=\"two", "lines\"", "counter.add by=1"])
        #expect(run.errors == "")
        #expect((await shell.state(of: "counter") as? Counter)?.name == "two\nlines")
        #expect(await total(shell) == 1)
    }

    @Test func aCommandStillOpenAtTheBoundFailsWhereItOpenedAndReadingGoesOnAfterIt() async throws {
        let shell = try await counter()
        var options = ShellOptions()
        options.keepGoing = true
        // The bracket on line 2 never closes (a `#` inside a list is no comment): 10,000 lines later
        // the command ends, and lines 3… are read again, each on its own (comments, then a command).
        let lines = ["counter.add by=1", "counter.add by=["] + Array(repeating: "# filler", count: CommandReader.lineLimit) + ["counter.add by=1"]
        let run = try await Transcript.run(shell, lines, options: options)
        #expect(
            run.errors
                == "<test>:2:16: error: unterminated list: the '[' at line 2, column 16 is still open after 10000 lines or 1 MiB,"
                + " the most one command may take (add a closing ']'); line 2 is skipped, and reading goes on at line 3\n")
        #expect(await total(shell) == 2)
    }

    @Test func aCommandReaderBoundsACommandByItsBytesToo() {
        var reader = CommandReader()
        reader.append("all.x v=\"")
        let long = String(repeating: "x", count: 1 << 16)
        var read: CommandReader.Read?
        var appended = 1
        while read == nil {
            reader.append(long)
            appended += 1
            read = reader.next()
        }
        guard case .unterminated(let open)? = read else {
            Issue.record("not bounded: \(String(describing: read))")
            return
        }
        #expect(open.line == 1 && open.column == 9 && !open.atEnd)
        #expect(appended == (CommandReader.byteLimit / ((1 << 16) + 1)) + 2)
        // The lines after the one where it opened are read again: here each is still inside no string.
        #expect(reader.next() == .command(.init(lines: [long], line: 2)))
    }

    /// Many stray openers at the end of the input: each would be read to
    /// the end again after the one before it was skipped (n², a hang on a
    /// few megabytes of garbage); past the limit of bytes read again, an
    /// open line is skipped on its own, and each line is read once more.
    @Test func strayOpenersAreReadAgainOnlyUpToALimitThenEachOnItsOwnLine() {
        let limit = 4_096
        var reader = CommandReader(rereadLimit: limit)
        let lines = 2_000
        for _ in 0..<lines { reader.append("counter.add by=[1") }
        var bounds: [CommandReader.Unterminated.Bound] = []
        var numbers: [Int] = []
        while case .unterminated(let open)? = reader.next(atEnd: true) {
            bounds.append(open.bound)
            numbers.append(open.line)
        }
        #expect(numbers == Array(1...lines), "every line skipped, once, in order")
        let continued = bounds.prefix { $0 == .end }.count
        #expect(continued > 0 && bounds.dropFirst(continued).allSatisfy { $0 == .line })
        // Before the limit, each was read again to the end; after it, none is.
        #expect(reader.bytesReadAgain > limit && reader.bytesReadAgain <= limit + lines * 18)
    }

    @Test func pastTheRereadLimitAnOpenLineSaysWhyItIsNotContinued() async throws {
        var reader = CommandReader(rereadLimit: 0)
        reader.append("counter.add by=[1")
        reader.append("counter.add by=[2")
        reader.append("counter.add by=[3]")
        guard case .unterminated(let first)? = reader.next(atEnd: true), case .unterminated(let second)? = reader.next(atEnd: true) else {
            Issue.record("the stray brackets were not skipped")
            return
        }
        #expect(first.bound == .end)
        #expect(
            second.message
                == "unterminated list: the '[' at line 2, column 16 is still open at the end of its line (so many commands of this input"
                + " never closed that a line is no longer continued on the next) (add a closing ']'); line 2 is skipped, and reading goes on at line 3"
        )
        #expect(reader.next(atEnd: true) == .command(.init(lines: ["counter.add by=[3]"], line: 3)))
    }

    // MARK: A session keeps its last --history-limit commands

    @Test func pastTheHistoryLimitTheOldestAreDroppedOnceNotedAndStillNumbered() async throws {
        let shell = try await counter()
        var options = ShellOptions()
        options.history.limit = 2
        options.printing.diff = .off
        let run = try await Transcript.run(shell, ["counter.add by=1", "counter.add by=2", "counter.add by=3", ":history"], options: options)
        #expect(run.errors.hasPrefix("note: this session keeps its last 2 commands (--history-limit)"))
        #expect(run.errors.components(separatedBy: "note:").count == 2, "noted once")
        #expect(run.output.hasSuffix("    3  ok     counter.add by=3\n"), "\(run.output)")
        #expect(!run.output.contains("    2  ok"), "the :history line itself is the fourth command kept")
        options.printing.json = true
        let json = try await Transcript.run(try await counter(), ["counter.add by=1", "counter.add by=2", "counter.add by=3"], options: options)
        #expect(json.output.contains(#"{"kind":"note","message":"this session keeps its last 2 commands"#))
        options.printing.quiet = true
        let quiet = try await Transcript.run(try await counter(), ["counter.add by=1", "counter.add by=2", "counter.add by=3"], options: options)
        #expect(!quiet.output.contains("note"))
    }

    @Test func exportTestRefusesASessionThatDroppedItsFirstCommands() async throws {
        var options = ShellOptions()
        options.history.limit = 1
        options.testExport = TestExportOptions(factory: "try await make()")
        let run = try await Transcript.run(
            try await counter(), ["counter.add by=1", "counter.add by=2", ":export-test /nonexistent/x.swift"], options: options)
        #expect(run.errors.contains("cannot write this session as a test: its first commands were dropped (--history-limit 1)"), "\(run.errors)")
    }

    @Test func aCommandReaderHandsOutWholeCommandsAndNumbersThem() {
        var reader = CommandReader()
        for line in ["a.b x=[1,", "2]", "# comment \"", "c.d y=\"", "z\" w={", "}"] { reader.append(line) }
        var reads: [CommandReader.Read] = []
        while let read = reader.next() { reads.append(read) }
        #expect(
            reads == [
                .command(.init(lines: ["a.b x=[1,", "2]"], line: 1)),
                .command(.init(lines: ["# comment \""], line: 3)),
                .command(.init(lines: ["c.d y=\"", "z\" w={", "}"], line: 4)),
            ])
        #expect(!reader.isContinuing)
    }

    @Test func aMetaCommandGoesOnOnlyForAQuote() {
        #expect(!LineContinuation.isOpen(":state counter items["))
        #expect(LineContinuation.isOpen(":help \"x"))
        #expect(LineContinuation.isOpen("counter.add by=["))
        #expect(!LineContinuation.isOpen("counter.add # by=["))
        #expect(LineContinuation.isOpen("counter.add x=\"a\\"))
    }
}
