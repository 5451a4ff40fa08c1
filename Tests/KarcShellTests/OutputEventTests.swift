import Foundation
import Testing

@testable import KarcOutput
@testable import KarcRendering
@testable import KarcSession

/// Every kind of output is one event with a readable and a JSON form: the
/// same facts in both, so a program reading `--json` misses nothing a
/// person sees.
@Suite("Output events: one event, two forms", .timeLimit(.minutes(1)))
struct OutputEventTests {
    struct Added: Equatable, Sendable { var title: String }
    struct Tally: Equatable, Sendable { var count: Int }

    /// Each kind of event, what the readable formatter writes (standard output, then standard error), and the JSON line's kind.
    static var cases: [(event: OutputEvent, readable: String, kind: String?)] {
        [
            (.echo("counter.increment"), "> counter.increment\n", nil),
            (.reply(target: "counter", value: 3), "reply  3\n", "reply"),
            (
                .lateReply(command: .init(name: "slow.poke", text: "slow.poke times=2", seq: 3, script: "a.karc", line: 4), value: "done"),
                "reply  (late, #3 slow.poke times=2) \"done\"\n", "reply"
            ),
            (.event(source: "articles", value: Added(title: "hi"), late: nil), "event  articles: OutputEventTests.Added(title: \"hi\")\n", "event"),
            (
                .event(source: "account", value: Added(title: "hi"), late: "#1 account.register"),
                "event  account (late, #1 account.register): OutputEventTests.Added(title: \"hi\")\n", "event"
            ),
            (
                .redirect(by: "guard", action: Tally(count: 1), to: []), "redirected  OutputEventTests.Tally(count: 1) by guard (dropped)\n",
                "redirect"
            ),
            (
                .stateChange(
                    .init(target: "counter", old: Tally(count: 0), new: Tally(count: 1), difference: "- a\n+ b", prefixes: ComparedPrefixes())),
                "state  counter:\n  - a\n  + b\n", "state"
            ),
            (
                .stateSummary(target: "counter", state: Tally(count: 1), counts: .init(changed: 1, unchanged: 0), from: "the app"),
                "state  counter (by the app): 1 changed, 0 unchanged\n", "state"
            ),
            (
                .snapshot(.init(heading: "counter", value: Tally(count: 1), path: nil, owner: nil)),
                "state  counter: OutputEventTests.Tally(count: 1)\n", "snapshot"
            ),
            (.error("no such target", at: .init(script: "a.karc", line: 2, column: 5)), "a.karc:2:5: error: no such target\n", "error"),
            (.notice("slow", command: "slow.poke", at: .init(script: "a.karc", line: 3)), "a.karc:3: note: slow\n", "timeout"),
            (.note("dropping"), "note: dropping\n", "note"),
            (.message("saved 2 commands"), "saved 2 commands\n", "log"),
            (.problem("x failed late"), "x failed late\n", "error"),
            (.timing(.milliseconds(1.5)), "time   1.500 ms\n", "timing"),
            (.unchanged, "ok (no changes)\n", nil),
            (.done(seq: 4, outcome: "ok"), "", "done"),
            (
                .setting(.init(name: "timing", value: "on", text: "timing on: each command's time is printed after it")),
                "timing on: each command's time is printed after it\n", "setting"
            ),
            (
                .historyEntry(number: 2, .init(line: "articles.add title=\"a\nb\"", outcome: .failed), full: false),
                "    2  error  articles.add title=\"a\n              b\"\n", "history"
            ),
            (
                .help(.meta(HelpPage.Meta(MetaQuit.self))),
                ":quit\n  leave the shell (also :exit, :q, Ctrl-D)\n  Leaves with status 0, or 1 when a command of a script failed.\n  also: :exit, :q\n",
                "help"
            ),
        ]
    }

    func written(_ event: OutputEvent, by formatter: any OutputFormatter, in context: OutputContext = OutputContext()) -> String {
        var formatter = formatter
        let sink = OutputSink(capturing: ())
        formatter.write(event, in: context, to: sink)
        return String(decoding: sink.takeCaptured(), as: UTF8.self)
    }

    @Test func eachEventHasItsReadableForm() {
        let readable = ReadableFormatter(style: Style(isEnabled: false))
        for (event, text, _) in Self.cases {
            #expect(written(event, by: readable) == text)
        }
    }

    @Test func eachEventHasItsJSONLineOfItsKind() throws {
        let json = JSONFormatter()
        for (event, _, kind) in Self.cases {
            let line = written(event, by: json)
            guard let kind else {
                #expect(line.isEmpty, "an echo, and 'ok (no changes)' (the done line says the command ended), are for people only")
                continue
            }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["kind"] as? String == kind, "\(line)")
            #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" }, "one line: \(line)")
        }
    }

    @Test func whileACommandRunsEveryJSONLineCarriesItsNumberAndALateReplyItsOwn() throws {
        let json = JSONFormatter()
        let seven = OutputContext(seq: 7)
        let reply = try #require(
            try JSONSerialization.jsonObject(with: Data(written(.reply(target: "counter", value: 3), by: json, in: seven).utf8)) as? [String: Any])
        #expect(reply["seq"] as? Int == 7)
        let late = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    written(
                        .lateReply(command: .init(name: "slow.poke", text: "slow.poke times=2", seq: 3, script: "a.karc", line: 4), value: 1),
                        by: json, in: seven
                    ).utf8)) as? [String: Any])
        #expect(late["seq"] as? Int == 3, "a late reply belongs to the command that sent it")
        #expect(late["command"] as? String == "slow.poke")
        #expect(late["text"] as? String == "slow.poke times=2")
        #expect(late["script"] as? String == "a.karc")
        #expect(late["line"] as? Int == 4)
        #expect(!written(.note("between commands"), by: json).contains("seq"))
    }

    @Test func inALineThatWrappedTheCaretGoesUnderACopyOfItsRow() {
        let readable = ReadableFormatter(style: Style(isEnabled: false))
        let prompt = OutputContext(promptWidth: 6, terminalColumns: { 20 })  // "demo> "
        // demo> counter.increm | nt value=1 value=2: the mistake is on the first of two rows.
        let first = written(.error("unknown target", at: .init(column: 3, text: "counter.incremnt value=1 value=2")), by: readable, in: prompt)
        #expect(first == "      counter.increm\n        ^\nerror: unknown target\n")
        // demo> counter.increm | ent valeu=1: on the last row the caret goes right under it, with no copy.
        let last = written(.error("unknown field", at: .init(column: 19, text: "counter.increment valeu=1")), by: readable, in: prompt)
        #expect(last == "    ^\nerror: unknown field\n")
    }

    @Test func anErrorAtThePromptPointsAtItsColumnUnderTheLineTyped() {
        let readable = ReadableFormatter(style: Style(isEnabled: false))
        let text = written(.error("unknown target", at: .init(column: 3, text: "日本.x")), by: readable, in: OutputContext(promptWidth: 6))  // "demo> "
        // The caret counts terminal columns: each of the two wide characters before column 3 takes two.
        #expect(text == "          ^\nerror: unknown target\n")
    }
}
