import KarcShell
import KarcShellTrellis
import Testing

@testable import KarcSession
@testable import KarcTrace

/// `:trace N` of a command whose trace the session's bounded book dropped
/// says so, and how to keep trees; of a command that never had one, says that.
@Suite(.timeLimit(.minutes(1)))
struct TraceNotKeptTests {
    var plain: ShellOptions { .plain() }

    @Test func anOlderCommandsTraceThatWasNotKeptSaysSoAndHowToKeepIt() async throws {
        let shop = try await TraceTests.shop()
        var options = plain
        options.keepGoing = true
        let run = try await Transcript.capture { sink in
            let session = ShellSession(cluster: shop, options: options, sink: sink, words: PromptWords())
            // A book of a few hops: the first command's trace is dropped by the next ones'.
            session.traces = TraceBook(hopsPerTrace: 2, hopBudget: 3)
            let result = await ScriptRunner(session: session).run(
                lines: ["orders.place item=pen quantity=1", ":help", "orders.place item=ink quantity=1", ":trace 1", ":trace 2"],
                name: "<test>")
            return result == .succeeded ? 0 : 1
        }
        #expect(
            run.errors.split(separator: "\n") == [
                "<test>:4:8: error: command 1's trace was not kept: the session keeps its last 3 hops; commands with one: 3"
                    + " (:trace on prints each command's tree as it runs, and :history keeps it with the output)",
                "<test>:5:8: error: command 2 has no trace (only sends have one); commands with one: 3",
            ])
        await shop.shutDown()
    }
}
