import Foundation
import KarcDemo
import KarcHistory
import KarcInspector
import KarcOutput
import KarcSession
import KarcSessionTrellis
import Testing

/// What the inspector's page asks of a session, answered as a command
/// would see it: a state a part at a time and as it was after any command,
/// a command's causal tree and sequence diagram, completions, lines run
/// from the page, and going back.
@Suite(.timeLimit(.minutes(1)))
struct InspectorQuestionsTests {
    /// The demo after the README's session: a redirected add, a login, an add, a like.
    final class Demo {
        let cluster: ClusterShell
        let session: ShellSession
        let sink = OutputSink(capturing: ())

        init(readOnly: Bool = false) async throws {
            cluster = ClusterShell(name: "demo", cluster: try await DemoCluster.makeForTesting(tick: .seconds(3_600)))
            var options = ShellOptions()
            options.printing.color = false
            options.printing.json = true
            var runtime = ShellRuntime()
            runtime.inspector = InspectorStarter(readOnly: readOnly)
            session = ShellSession(cluster: cluster, options: options, sink: sink, runtime: runtime)
        }

        func run(_ lines: String...) async {
            _ = await ScriptRunner(session: session).run(lines: lines, name: nil)
        }

        func ask(_ question: SessionQuestion) async throws -> [String: Any] {
            let text = await session.answer(question)
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        }

        var printed: String { String(decoding: sink.takeCaptured(), as: UTF8.self) }
    }

    @Test func aStateIsSeenAPartAtATimeAsItWasAfterAnyCommand() async throws {
        let demo = try await Demo()
        await demo.run(
            #"identity.login email=jill@example.com password=s3cret!"#, #"articles.add title="Hello""#, #"articles.add title="Again""#,
            "articles.like id=1")
        let now = try await demo.ask(.state(target: "articles", path: "", after: nil, offset: 0, limit: 200))
        #expect((now["part"] as? [String: Any])?["kind"] as? String == "fields")
        let fields = try #require(now["children"] as? [[String: Any]])
        #expect(fields.map { $0["step"] as? String } == ["items", "nextID", "owner"])
        #expect(fields[0]["kind"] as? String == "list")
        #expect(fields[0]["count"] as? Int == 2)

        // After the first add: one article, not yet liked; the add changed the list.
        let beforeAll = try await demo.ask(.state(target: "articles", path: "items", after: 0, offset: 0, limit: 200))
        #expect((beforeAll["part"] as? [String: Any])?["count"] as? Int == 0)
        let afterAdd = try await demo.ask(.state(target: "articles", path: "items", after: 2, offset: 0, limit: 200))
        let items = try #require(afterAdd["children"] as? [[String: Any]])
        #expect(items.map { $0["path"] as? String } == ["items[0]"])
        #expect(afterAdd["changed"] as? [String] == ["items[0]", "nextID"])
        let likes = try await demo.ask(.state(target: "articles", path: "items[0].likes", after: 2, offset: 0, limit: 200))
        #expect((likes["part"] as? [String: Any])?["text"] as? String == "0")
        let likedNow = try await demo.ask(.state(target: "articles", path: "items[0].likes", after: nil, offset: 0, limit: 200))
        #expect((likedNow["part"] as? [String: Any])?["text"] as? String == "1")
        let title = try await demo.ask(.state(target: "articles", path: "items[1]", after: nil, offset: 0, limit: 200))
        #expect((title["children"] as? [[String: Any]])?.first { $0["step"] as? String == "title" }?["text"] as? String == #""Again""#)

        let found = try await demo.ask(.search(target: "articles", text: "again", after: nil))
        #expect(found["paths"] as? [String] == ["items[1].title"])
        await demo.cluster.shutDown()
    }

    @Test func aWrongTargetPathOrCommandIsToldWhatIsWrong() async throws {
        let demo = try await Demo()
        await demo.run("counter.increment")
        let target = try await demo.ask(.state(target: "artcles", path: "", after: nil, offset: 0, limit: 10))
        #expect((target["error"] as? String)?.hasPrefix("no target 'artcles'; did you mean 'articles'?") == true)
        let path = try await demo.ask(.state(target: "articles", path: "itms", after: nil, offset: 0, limit: 10))
        #expect((path["error"] as? String)?.contains("articles has no part itms") == true)
        let unclosed = try await demo.ask(.state(target: "articles", path: "items[0", after: nil, offset: 0, limit: 10))
        #expect((unclosed["error"] as? String)?.contains("unclosed '['") == true)
        let future = try await demo.ask(.state(target: "counter", path: "", after: 9, offset: 0, limit: 10))
        #expect(future["error"] as? String == "there is no command 9 yet: the last is 1")
        let noTrace = try await demo.ask(.trace(7))
        #expect(noTrace["error"] as? String == "command 7 has no trace (only sends have one); commands with one: 1")
        let quit = try await demo.ask(.run(":quit"))
        #expect(quit["error"] as? String == "the page cannot end the session: Ctrl-D or :quit in its terminal does")
        let empty = try await demo.ask(.run("  "))
        #expect((empty["error"] as? String)?.hasPrefix("nothing to run") == true)
        await demo.cluster.shutDown()
    }

    @Test func whyIsTheCommandsCausalTreeAndItsSequenceDiagram() async throws {
        let demo = try await Demo()
        await demo.run(#"identity.login email=jill@example.com password=s3cret!"#)
        let trace = try await demo.ask(.trace(1))
        let lines = try #require(trace["lines"] as? [[String: Any]])
        #expect((lines.first?["text"] as? String)?.hasPrefix("identity.login  ok  ") == true)
        #expect(lines.first?["milliseconds"] is Double)
        #expect(lines.contains { ($0["text"] as? String)?.hasPrefix("articles.load") == true && $0["depth"] as? Int == 1 })
        #expect(lines.contains { ($0["text"] as? String)?.hasPrefix("account.register") == true })
        let diagram = try await demo.ask(.diagram(1))
        #expect(diagram["participants"] as? [String] == ["shell", "identity", "articles", "account"])
        let messages = try #require(diagram["messages"] as? [[String: Any]])
        #expect(messages.first?["style"] as? String == "send")
        #expect(messages.first?["from"] as? Int == 0)
        #expect(messages.first?["to"] as? Int == 1)
        // The account's reply to the identity's send, drawn back.
        #expect(messages.contains { $0["style"] as? String == "reply" && $0["from"] as? Int == 3 && $0["to"] as? Int == 1 })
        #expect((diagram["mermaid"] as? String)?.contains("sequenceDiagram") == true)
        await demo.cluster.shutDown()
    }

    @Test func aLineFromThePageRunsInTheSessionAndTheTerminalSaysSo() async throws {
        let demo = try await Demo()
        await demo.run("counter.increment")
        _ = demo.printed
        let ran = try await demo.ask(.run("counter.increment"))
        #expect(ran["seq"] as? Int == 2)
        #expect(ran["outcome"] as? String == "ok")
        let printed = demo.printed
        #expect(printed.contains(#"{"kind":"log","message":"from the inspector: counter.increment"}"#))
        #expect(printed.contains(#"{"kind":"done","outcome":"ok","seq":2}"#))
        let failed = try await demo.ask(.run("counter.nosuch"))
        #expect(failed["outcome"] as? String == "error")
        await demo.cluster.shutDown()
    }

    @Test func goingBackToACommandUndoesEveryCommandSince() async throws {
        let demo = try await Demo()
        await demo.run("counter.increment", "counter.increment", "counter.increment")
        let back = try await demo.ask(.back(to: 1))
        #expect(back["outcome"] as? String == "ok")
        #expect(demo.printed.contains("from the inspector: :undo 2"))
        let count = try await demo.ask(.state(target: "counter", path: "count", after: nil, offset: 0, limit: 10))
        #expect((count["part"] as? [String: Any])?["text"] as? String == "1")
        // What was undone is no state the session can show any more, and it says so.
        let undone = try await demo.ask(.state(target: "counter", path: "", after: 2, offset: 0, limit: 10))
        #expect((undone["error"] as? String)?.hasPrefix("counter's state after command 2 was not kept: it was undone since") == true)
        let nothing = try await demo.ask(.back(to: 4))
        #expect((nothing["error"] as? String)?.hasPrefix("the states are as they were after command 4") == true)
        await demo.cluster.shutDown()
    }

    @Test func goingBackNamesWhatChangedAndCannotBeRestoredAsUndoDoes() async throws {
        let demo = try await Demo()
        await demo.run("counter.increment", "auth.log-in.email value=jill@example.com", "counter.increment")
        let back = try await demo.ask(.back(to: 1))
        #expect(back["outcome"] as? String == "ok")
        #expect(back["left"] as? [String] == ["auth"])
        // Only auth changed since: there is nothing to put back, and the refusal says why.
        await demo.run("auth.log-in.email value=bob@example.com")
        let nothing = try await demo.ask(.back(to: 4))
        #expect(
            nothing["error"] as? String
                == "the states are as they were after command 4: nothing since changed one that can be restored; auth changed, and cannot be restored (not Restorable)",
            "\(nothing)")
        await demo.cluster.shutDown()
    }

    @Test func goingBackFurtherThanTheKeptChangesIsRefusedNotHalfDone() async throws {
        let demo = try await Demo()
        for _ in 0...Snapshots.undoDepth { await demo.run("counter.increment") }
        let back = try await demo.ask(.back(to: 0))
        #expect(
            back["error"] as? String
                == "cannot go back to after command 0: the states before the last \(Snapshots.undoDepth) commands that changed one are not kept; the earliest to go back to is 1"
        )
        let count = try await demo.ask(.state(target: "counter", path: "count", after: nil, offset: 0, limit: 10))
        #expect((count["part"] as? [String: Any])?["text"] as? String == "\(Snapshots.undoDepth + 1)", "nothing was undone")
        #expect(try await demo.ask(.back(to: 1))["outcome"] as? String == "ok")
        await demo.cluster.shutDown()
    }

    @Test func theBoxCompletesAsThePromptDoes() async throws {
        let demo = try await Demo()
        await demo.run(#"identity.login email=jill@example.com password=s3cret!"#, #"articles.add title="Hello""#)
        let target = try await demo.ask(.complete("arti"))
        #expect(target["insert"] as? String == "cles.")
        let command = try await demo.ask(.complete("articles.l"))
        #expect(command["candidates"] as? [String] == ["articles.like", "articles.load"])
        let path = try await demo.ask(.complete(":state articles items[0].ti"))
        #expect(path["insert"] as? String == "tle")
        let overview = try await demo.ask(.overview)
        #expect((overview["targets"] as? [[String: Any]])?.map { $0["name"] as? String } == ["counter", "identity", "articles", "account", "auth"])
        #expect(overview["last"] as? Int == 2)
        await demo.cluster.shutDown()
    }

    @Test func aReadOnlyInspectorLooksButRunsNothingThatChangesTheApp() async throws {
        let demo = try await Demo(readOnly: true)
        await demo.run("counter.increment")
        let send = try await demo.ask(.run("counter.increment"))
        #expect((send["error"] as? String)?.hasPrefix("this inspector is read-only (the app serves --read-only): it runs no send") == true)
        let undo = try await demo.ask(.run(":undo"))
        #expect(undo["error"] != nil)
        let back = try await demo.ask(.back(to: 0))
        #expect(back["error"] != nil)
        let look = try await demo.ask(.run(":state counter"))
        #expect(look["outcome"] as? String == "ok")
        let overview = try await demo.ask(.overview)
        #expect(overview["readOnly"] as? Bool == true)
        await demo.cluster.shutDown()
    }
}
