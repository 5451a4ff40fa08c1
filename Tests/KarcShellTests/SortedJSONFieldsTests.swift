import Foundation
import KarcAsync
import Testing

@testable import KarcOutput
@testable import KarcRendering
@testable import KarcSession
@testable import KarcTrace

/// The lines `--json` writes after every command (`state`, `trace`) are
/// written field by field: the same text a ``JSONObject`` of their fields writes.
@Suite("JSON lines written field by field", .timeLimit(.minutes(1)))
struct SortedJSONFieldsTests {
    @Test func fieldsInTheirKeysOrderAreWhatAJSONObjectWrites() {
        var line = SortedJSONFields()
        line.add("a", "quote \" newline \n")
        line.add("b", Optional<Int>.none)
        line.add("c", 2.5)
        line.add("d", objects: 2) { index, fields in
            let number = index + 1
            fields.add("n", number)
            fields.add("odd", number % 2 == 1)
        }
        line.add("e", [RawJSON(text: #"{"x":1}"#)])
        var object: JSONObject = [
            "e": [RawJSON(text: #"{"x":1}"#)], "c": 2.5, "a": "quote \" newline \n",
            "d": [["n": 1, "odd": true] as JSONObject, ["odd": false, "n": 2] as JSONObject],
        ]
        object["b"] = Optional<Int>.none
        #expect(line.finish() == JSONLine.write(object))
        #expect(SortedJSONFields().finish() == "{}")
    }

    /// The `trace` line as a ``JSONObject`` of its fields writes it.
    static func traceObject(_ output: OutputEvent.TraceOutput, seq: Int?) -> String {
        var object: JSONObject = [
            "kind": "trace", "trace": TraceIDs.text(output.trace), "late": output.lateOnly,
            "hops": output.lines.map { line -> JSONObject in
                var hop: JSONObject = ["depth": line.depth, "hop": line.kind.rawValue, "text": line.text, "late": line.late]
                hop["span"] = line.span.map(TraceIDs.text)
                hop["parent"] = line.parent.map(TraceIDs.text)
                hop["milliseconds"] = line.duration.map(Milliseconds.value)
                return hop
            },
        ]
        object["traced"] = output.command
        object["command"] = output.name
        object["seq"] = seq
        return JSONLine.write(object)
    }

    @Test func aTraceLineIsWhatItsFieldsWrite() {
        let lines = [
            TraceTree.Line(
                depth: 0, kind: .send, text: "shop.buy  ok  0.120 ms", span: 0x2a, parent: nil, hop: 0, late: false, duration: .microseconds(120)),
            TraceTree.Line(depth: 1, kind: .event, text: "event  shop: \"sold\" \\ now", span: 0x2b, parent: 0x2a, hop: 1, late: true, duration: nil),
            TraceTree.Line(depth: 1, kind: .note, text: "… 3 more hops here", span: nil, parent: nil, hop: nil, late: false, duration: nil),
        ]
        let outputs = [
            OutputEvent.TraceOutput(command: 4, name: "shop.buy", trace: 0x2a, lines: lines, lateOnly: false),
            OutputEvent.TraceOutput(command: nil, name: nil, trace: 0xffff_ffff_ffff_ffff, lines: [], lateOnly: true),
        ]
        for output in outputs {
            for seq in [7, nil] {
                #expect(JSONFormatter.traceLine(output, seq: seq) == Self.traceObject(output, seq: seq))
            }
        }
    }

    struct Basket: Codable, Sendable { var items: [String] }

    @Test func aStateLineIsWhatItsFieldsWrite() throws {
        for (jsonStates, link, from) in [
            (false, TraceLink(trace: 5, span: 6, parent: 5), nil), (true, TraceLink(trace: 5, span: 5, parent: nil), "the app"),
            (false, nil, "another shell"),
        ] as [(Bool, TraceLink?, String?)] {
            var formatter = JSONFormatter()
            let context = OutputContext(seq: 3, link: link, jsonStates: jsonStates)
            let sink = OutputSink(capturing: ())
            let (old, new) = (Basket(items: ["tea"]), Basket(items: ["tea", "milk"]))
            var change = OutputEvent.StateChange(
                target: "basket", old: old, new: new, difference: "  Basket(\n    items: [\n      [0]: \"tea\",\n+     [1]: \"milk\"\n    ]\n  )",
                prefixes: ComparedPrefixes())
            change.from = from
            formatter.write(.stateChange(change), in: context, to: sink)
            sink.flush()
            let written = String(decoding: sink.takeCaptured(), as: UTF8.self)

            let oldTree = ValueText.tree(old, reusing: nil)
            let newTree = ValueText.tree(new, reusing: oldTree)
            var object: JSONObject = [
                "kind": "state", "target": "basket", "type": "SortedJSONFieldsTests.Basket", "patch": JSONPatch.patch(from: oldTree, to: newTree),
                "diff": change.difference, "seq": 3,
            ]
            object["by"] = from
            if jsonStates {
                object["old"] = RawJSON(text: oldTree.text)
                object["new"] = RawJSON(text: newTree.text)
            }
            if let link {
                object["trace"] = TraceIDs.text(link.trace)
                object["span"] = TraceIDs.text(link.span)
                object["parent"] = link.parent.map(TraceIDs.text)
            }
            #expect(written == JSONLine.write(object) + "\n")
        }
    }
}
