import Foundation
import KarcAsync
import KarcShell
import KarcShellTrellis
import Testing
import Trellis

@testable import KarcSession

/// A diff names one cause, and it is the right one: quick changes of one
/// target by different causes are told (and blamed) each on its own, and a
/// change another made while a command ran is not that command's.
@Suite(.timeLimit(.minutes(1)))
struct ChangeCauseTests {
    struct Add: Action, Codable { var n: Int }
    struct Double: Action, Codable {}
    struct Open: Action, Codable {}

    /// A counter two actions change, and a gate whose `open` waits until the test lets it end.
    static func counter(entered: AsyncStream<Void>.Continuation, release: AsyncStream<Void>) async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Int.self)
                .mutate(on: Add.self) { count, add, _ in count += add.n }
                .mutate(on: Double.self) { count, _, _ in count *= 2 }
                .with(model: 0).named("counter")
            Store(model: Bool.self)
                .mutate(on: Open.self) { open, _, _ in
                    entered.yield()
                    for await _ in release { break }
                    open = true
                }
                .with(model: false).named("gate")
        }
        return ClusterShell(name: "counter", cluster: cluster)
    }

    static func options(json: Bool = false) -> ShellOptions {
        var options = ShellOptions.plain(keepGoing: true)
        options.printing.json = json
        return options
    }

    @Test func quickChangesByDifferentCausesAreToldAndBlamedEachOnItsOwn() async throws {
        let (_, entered) = AsyncStream<Void>.makeStream()
        let shell = try await Self.counter(entered: entered, release: AsyncStream { $0.finish() })
        let run = try await Transcript.capture { sink in
            let session = ShellSession(cluster: shell, options: Self.options(), sink: sink, words: PromptWords())
            _ = await ScriptRunner(session: session).run(lines: ["counter.add n=1"], name: "<test>")
            // The app's own sends, between two commands: an add, then two doubles.
            try? await shell.cluster.send(action: Add(n: 2))
            try? await shell.cluster.send(action: Double())
            try? await shell.cluster.send(action: Double())
            _ = await ScriptRunner(session: session).run(lines: [":blame counter"], name: "<test>")
            return 0
        }
        #expect(run.output.contains("state  counter (by the app: counter.add):\n  - 1\n  + 3\n"), "\(run.output)")
        // The two doubles, one cause: one diff still, so an app that floods one action prints one line a batch.
        #expect(run.output.contains("state  counter (by the app: counter.double):\n  - 3\n  + 12\n"), "\(run.output)")
        #expect(!run.output.contains("- 1\n  + 12"), "\(run.output)")
        let blame = run.output.components(separatedBy: ":blame counter").last ?? ""
        #expect(blame.contains("the app: counter.double"), "\(blame)")
        #expect(blame.contains("the app: counter.add"), "\(blame)")
        #expect(blame.contains("#1  ") && blame.contains("counter.add n=1"), "\(blame)")
        await shell.shutDown()
    }

    @Test func aChangeTheAppMadeWhileACommandRanIsNamedAndNotTheCommands() async throws {
        for json in [false, true] {
            let (entering, entered) = AsyncStream<Void>.makeStream()
            let (release, releasing) = AsyncStream<Void>.makeStream()
            let shell = try await Self.counter(entered: entered, release: release)
            let run = try await Transcript.capture { sink in
                let session = ShellSession(cluster: shell, options: Self.options(json: json), sink: sink, words: PromptWords())
                async let ran = ScriptRunner(session: session).run(lines: ["gate.open"], name: "<test>")
                for await _ in entering { break }
                // While `gate.open` runs: the app adds, then the gate opens.
                try? await shell.cluster.send(action: Add(n: 2))
                releasing.yield()
                _ = await ran
                return 0
            }
            if json {
                let lines = run.output.split(separator: "\n").map(String.init)
                let counter = lines.first { $0.contains(#""kind":"state""#) && $0.contains(#""target":"counter""#) }
                #expect(counter?.contains(#""by":"the app: counter.add""#) == true, "\(run.output)")
                #expect(counter?.contains(#""seq":"#) == false, "not gate.open's output: \(run.output)")
                let gate = lines.first { $0.contains(#""kind":"state""#) && $0.contains(#""target":"gate""#) }
                #expect(gate?.contains(#""seq":1"#) == true, "\(run.output)")
            } else {
                #expect(run.output.contains("state  counter (by the app: counter.add):\n  - 0\n  + 2\n"), "\(run.output)")
                #expect(run.output.contains("state  gate:\n  - false\n  + true\n"), "\(run.output)")
            }
            await shell.shutDown()
        }
    }

    struct Poked: Sendable {}

    /// An event between commands says who set it off, as a diff does: the
    /// app's send by its name, and with no link at all, the app.
    @Test func anEventNoCommandOfThisSessionSetOffSaysWho() async throws {
        for json in [false, true] {
            let cluster = PushedRecords()
            let link = TraceLink.rootOnly(span: 7, origin: .none)
            cluster.push([
                ShellRecord(.sent(action: Add(n: 1), target: "counter"), link: link),
                ShellRecord(.event(source: "counter", event: Poked()), link: link),
                .event(source: "counter", event: Poked()),
            ])
            let run = try await Transcript.capture { sink in
                let session = ShellSession(cluster: cluster, options: Self.options(json: json), sink: sink, words: PromptWords())
                _ = await ScriptRunner(session: session).run(lines: [":timing off"], name: "<test>")
                return 0
            }
            if json {
                let events = run.output.split(separator: "\n").filter { $0.contains(#""kind":"event""#) }
                #expect(events.count == 2, "\(run.output)")
                #expect(events.first?.contains(#""by":"the app: counter."#) == true, "\(run.output)")
                #expect(events.last?.contains(#""by":"the app""#) == true, "\(run.output)")
                #expect(!events.contains { $0.contains(#""seq""#) }, "\(run.output)")
            } else {
                #expect(run.output.contains("event  counter (by the app: counter."), "\(run.output)")
                #expect(run.output.contains("event  counter (by the app): ChangeCauseTests.Poked()\n"), "\(run.output)")
            }
        }
    }

    /// A flood of one action between two looks is one diff named by it,
    /// though the roots of its first sends are no longer kept.
    @Test func aFloodOfOneActionIsOneDiffThoughItsFirstRootsAreNoLongerKept() async throws {
        let cluster = PushedRecords()
        var records: [ShellRecord] = []
        for n in 1...1_500 {
            let link = TraceLink.rootOnly(span: UInt64(n), origin: .none)
            records.append(ShellRecord(.sent(action: Add(n: 1), target: "counter"), link: link))
            records.append(
                ShellRecord(
                    .stateChanged(target: "counter", old: PushedRecords.Counter(count: n - 1), new: PushedRecords.Counter(count: n)), link: link))
        }
        cluster.push(records)
        let run = try await Transcript.capture { sink in
            let session = ShellSession(cluster: cluster, options: Self.options(), sink: sink, words: PromptWords())
            _ = await ScriptRunner(session: session).run(lines: [":timing off"], name: "<test>")
            return 0
        }
        #expect(run.output.components(separatedBy: "state  counter").count == 2, "one diff: \(run.output)")
        #expect(run.output.contains("state  counter (by the app: counter."), "\(run.output)")
        #expect(run.output.contains("count: 0") && run.output.contains("count: 1500"), "\(run.output)")
    }

    /// An event that came since the last command is `:wait`'s to find, not
    /// printed before it: the wait ends at once.
    @Test func anEventThatCameBeforeWaitEndsTheWait() async throws {
        let cluster = PushedRecords()
        cluster.push([.event(source: "counter", event: Poked())])
        let run = try await Transcript.capture { sink in
            let session = ShellSession(cluster: cluster, options: Self.options(), sink: sink, words: PromptWords())
            return await ScriptRunner(session: session).run(lines: [":wait Poked 1s"], name: "<test>") == .succeeded ? 0 : 1
        }
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(run.output.contains("event  counter (by the app): ChangeCauseTests.Poked()"), "\(run.output)")
    }
}
