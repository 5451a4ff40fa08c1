import Foundation
import Testing

/// `--json` `state` lines carry an RFC 6902 patch: applied one after
/// another to a target's state, they give what `:state` prints.
@Suite(.timeLimit(.minutes(1))) struct JSONPatchTests {
    /// Applies `add`, `remove` and `replace` (all the shell writes) to a parsed JSON document.
    static func apply(_ patch: [[String: Any]], to document: Any) throws -> Any {
        var document = document
        for operation in patch {
            let op = try #require(operation["op"] as? String)
            let path = try #require(operation["path"] as? String)
            let tokens = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
            document = try change(document, Array(tokens)[...], op, operation["value"])
        }
        return document
    }

    private static func change(_ node: Any, _ tokens: ArraySlice<String>, _ op: String, _ value: Any?) throws -> Any {
        guard let token = tokens.first else {
            #expect(op == "replace")
            return try #require(value)
        }
        let last = tokens.count == 1
        if var object = node as? [String: Any] {
            if last {
                if op == "remove" {
                    object[token] = nil
                } else {
                    let added: Any = try #require(value)
                    object[token] = added
                }
            } else {
                object[token] = try change(try #require(object[token]), tokens.dropFirst(), op, value)
            }
            return object
        }
        var array = try #require(node as? [Any])
        let index = token == "-" ? array.count : try #require(Int(token))
        if last {
            switch op {
            case "add": array.insert(try #require(value), at: index)
            case "remove": array.remove(at: index)
            default: array[index] = try #require(value)
            }
        } else {
            array[index] = try change(array[index], tokens.dropFirst(), op, value)
        }
        return array
    }

    @Test func patchesAppliedInTurnGiveTheStateStatePrints() async throws {
        var script = [":state articles", "identity.login email=jill@example.com password=s3cret!"]
        for n in 1...12 { script.append("articles.add title=\"article \(n)\"") }
        script += [
            "articles.like id=3", "articles.remove id=1", "articles.remove id=7", "articles.like id=12", "articles.remove id=12",
            "articles.add title=last", ":state articles",
        ]
        let run = try await KarcRun.run(["--json", "--fresh"], input: script.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        let snapshots = run.jsonLines.filter { $0["kind"] as? String == "snapshot" }
        try #require(snapshots.count == 2)
        var document = try #require(snapshots[0]["value"])
        let states = run.jsonLines.filter { $0["kind"] as? String == "state" && $0["target"] as? String == "articles" }
        // Signing in loads the user's articles (their owner), then 12 adds, 5 changes and one add.
        #expect(states.count == 19)
        for state in states {
            #expect(state["old"] == nil && state["new"] == nil, "whole states only with --json-states")
            document = try Self.apply(try #require(state["patch"] as? [[String: Any]]), to: document)
        }
        let expected = try JSONSerialization.data(withJSONObject: try #require(snapshots[1]["value"]), options: .sortedKeys)
        #expect(try JSONSerialization.data(withJSONObject: document, options: .sortedKeys) == expected)
    }

    @Test func aLineGrowsWithTheChangeNotWithTheState() async throws {
        var script = ["identity.login email=jill@example.com password=s3cret!"]
        for n in 1...300 { script.append("articles.add title=\"article \(n)\"") }
        let run = try await KarcRun.run(["--json", "--fresh", "--no-diff"], input: script.joined(separator: "\n") + "\n")
        #expect(!run.jsonLines.contains { $0["kind"] as? String == "state" }, "--no-diff: no state lines")
        let patched = try await KarcRun.run(["--json", "--fresh"], input: script.joined(separator: "\n") + "\n")
        let states = patched.jsonLines.filter { $0["kind"] as? String == "state" && $0["target"] as? String == "articles" }
        let patchSizes = states.suffix(2).map { try? JSONSerialization.data(withJSONObject: $0["patch"] ?? []).count }
        #expect(patchSizes.allSatisfy { ($0 ?? .max) < 200 }, "\(patchSizes)")
        #expect(states.count == 301)
    }
}
