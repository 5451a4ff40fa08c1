import CustomDump
import Foundation
import Testing

@testable import KarcOutput
@testable import KarcRendering
@testable import KarcSession
@testable import KarcShell

@Suite("Output: JSON lines and state diffs", .timeLimit(.minutes(1)))
struct OutputTests {
    @Test func jsonLinesAreValidJSONWithSortedKeys() throws {
        let line = JSONLine.write([
            "kind": "event", "text": "quote \" backslash \\ newline \n tab \t bell \u{7} é 😀 /",
            "int": 42, "double": 1.5, "flag": true, "none": JSONNull(), "list": [1, 2], "flags": [false],
            "nested": ["b": 2, "a": [RawJSON(text: #"{"x":[1,2]}"#)]] as JSONObject, "absent": String?.none,
            "infinite": Double.infinity,
        ])
        #expect(
            line.hasPrefix(
                #"{"absent":null,"double":1.5,"flag":true,"flags":[false],"infinite":null,"int":42,"kind":"event","list":[1,2],"nested":{"a":[{"x":[1,2]}],"b":2},"none":null,"text":""#
            ))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(parsed["text"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{7} é 😀 /")
        #expect(!line.contains("\n"))
    }

    @Test func aFieldSetToNilIsLeftOutAndALaterSetReplacesTheFirst() {
        var object: JSONObject = ["kind": "state", "seq": 1]
        object["by"] = String?.none
        object["seq"] = 2
        object["target"] = "counter"
        object["kind"] = nil
        object.addIfAbsent("seq", 3)
        object.addIfAbsent("line", Int?.none)
        #expect(object.keys == ["seq", "target"])
        #expect(JSONLine.write(object) == #"{"seq":2,"target":"counter"}"#)
        object.addIfAbsent("line", 7)
        #expect(JSONLine.write(object) == #"{"line":7,"seq":2,"target":"counter"}"#)
    }

    @Test func aDurationIsWrittenInMillisecondsWithThreeDecimals() {
        #expect(Milliseconds.text(.microseconds(115)) == "0.115 ms")
        #expect(Milliseconds.text(.nanoseconds(114_900)) == "0.115 ms")
        #expect(Milliseconds.text(.zero) == "0.000 ms")
        #expect(Milliseconds.text(.nanoseconds(12_345_678)) == "12.346 ms")
        #expect(Milliseconds.text(.seconds(1.5)) == "1500.000 ms")
        #expect(Milliseconds.text(.microseconds(-2_050)) == "-2.050 ms")
    }

    struct Counter: Equatable { var count: Int }
    struct Profile: Equatable {
        var name: String
        var tags: [String]
    }

    @Test func stateDiffsAreCustomDumpsDiffs() {
        let pairs: [(Any, Any)] = [
            (Counter(count: 0), Counter(count: 1)),
            (1, 2),
            ("a", "b"),
            (Optional<Int>.none as Any, Optional(3) as Any),
            (Profile(name: "Jill", tags: []), Profile(name: "Jill", tags: ["x"])),
            (Profile(name: "Jill", tags: ["a", "b"]), Profile(name: "Chris", tags: ["a", "b"])),
        ]
        for (old, new) in pairs {
            #expect(StateDiff.text(old, new) == diff(old, new), "\(old) → \(new)")
        }
        #expect(StateDiff.text(Counter(count: 1), Counter(count: 1)) == nil)
    }

    struct Tally: Codable, Equatable { var count: Int }

    @Test func eachStateDiffShowsItsOwnOldStateEvenWhenItIsNotTheLastOnePrinted() throws {
        for mode in [Renderer.Mode.readable, .json] {
            let sink = OutputSink()
            let renderer = Renderer(mode: mode, style: Style(isEnabled: false), sink: sink)
            renderer.jsonStates = true
            renderer.state(target: "counter", old: Tally(count: 0), new: Tally(count: 1))
            renderer.state(target: "counter", old: Tally(count: 1), new: Tally(count: 2))  // old is the last new
            renderer.state(target: "counter", old: Tally(count: 7), new: Tally(count: 8))  // it is not
            let lines = String(decoding: sink.takeBuffered(), as: UTF8.self).split(separator: "\n").map(String.init)
            switch mode {
            case .readable:
                #expect(
                    lines.filter { $0.hasPrefix("  -") } == [
                        "  - OutputTests.Tally(count: 0)", "  - OutputTests.Tally(count: 1)", "  - OutputTests.Tally(count: 7)",
                    ])
            case .json:
                let olds = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["old"] }
                #expect(olds.map { ($0 as? [String: Int])?["count"] } == [0, 1, 7])
            }
        }
    }

    enum Problem: Error, Codable, Equatable, CustomStringConvertible {
        case tooBig(limit: Int)
        var description: String { "too big" }
    }
    struct Vague: Error, CustomStringConvertible {
        var description: String { "it went wrong" }
    }

    /// A `Result.failure` reply is an error line that keeps the reply: its
    /// type, and the typed error as JSON when the error is `Encodable`.
    @Test func aFailedReplyIsAnErrorLineWithItsTypedError() throws {
        let sink = OutputSink()
        let renderer = Renderer(mode: .json, style: Style(isEnabled: false), sink: sink)
        renderer.failedReply(
            "store.add replied with a failure: too big", reply: Result<Int, Problem>.failure(.tooBig(limit: 3)), script: "s.karc", line: 2, column: 1)
        renderer.failedReply(
            "store.add replied with a failure: it went wrong", reply: Result<Int, Vague>.failure(Vague()), script: nil, line: nil, column: nil)
        let lines = String(decoding: sink.takeBuffered(), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"column":1,"kind":"error","line":2,"message":"store.add replied with a failure: too big","script":"s.karc","type":"Result<Int, OutputTests.Problem>","value":{"failure":{"tooBig":{"limit":3}}}}"#,
                #"{"kind":"error","message":"store.add replied with a failure: it went wrong","type":"Result<Int, OutputTests.Vague>","value":{"failure":"it went wrong"}}"#,
            ])
        let readable = OutputSink(capturing: ())
        Renderer(mode: .readable, style: Style(isEnabled: false), sink: readable).failedReply(
            "store.add replied with a failure: too big", reply: Result<Int, Problem>.failure(.tooBig(limit: 3)), script: "s.karc", line: 2, column: 1)
        readable.flush()
        #expect(String(decoding: readable.takeCaptured(), as: UTF8.self) == "s.karc:2:1: error: store.add replied with a failure: too big\n")
    }
}
