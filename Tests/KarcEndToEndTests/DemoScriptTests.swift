import Foundation
import Testing

/// Every script of scripts/demo through the real binary, checked by the facts of its `--json` output.
@Suite(.timeLimit(.minutes(1))) struct DemoScriptTests {
    let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/demo").standardized.path

    func run(_ script: String, _ extra: [String] = []) async throws -> KarcRun {
        try await KarcRun.run(["--json", "--json-states", "--fresh", "--tick", "200ms"] + extra + ["\(demo)/\(script)"])
    }

    func kinds(_ run: KarcRun, _ kind: String) -> [[String: Any]] {
        run.jsonLines.filter { $0["kind"] as? String == kind }
    }

    @Test func counter() async throws {
        let run = try await run("counter.karc")
        #expect(run.status == 0, "\(run.stderr)")
        let counts = kinds(run, "state").compactMap { ($0["new"] as? [String: Int])?["count"] }
        #expect(counts == [1, 6, 9, 0])
        #expect((kinds(run, "snapshot").first?["value"] as? [String: Int]) == ["count": 9])
    }

    @Test func identityAndArticles() async throws {
        let run = try await run("identity-articles.karc")
        #expect(run.status == 0, "\(run.stderr)")
        let redirects = kinds(run, "redirect")
        #expect(redirects.map { $0["type"] as? String } == ["Articles.Add", "Articles.Like"])
        #expect(redirects.allSatisfy { $0["by"] as? String == "Gatekeeper" })
        let articles = try #require(kinds(run, "snapshot").first?["value"] as? [String: Any])
        let items = try #require(articles["items"] as? [[String: Any]])
        // The removal was undone (:undo): both articles are there, the second liked.
        #expect(items.map { $0["title"] as? String } == ["Hello, karc", "One-way data flow"])
        #expect(items.map { $0["likes"] as? Int } == [0, 1])
    }

    @Test func accountAndLiveMessaging() async throws {
        let run = try await run("account-messaging.karc")
        #expect(run.status == 0, "\(run.stderr)")
        let events = kinds(run, "event").compactMap { $0["type"] as? String }
        #expect(
            events == ["UpdatedAccount", "ReceivedMessage", "ReceivedMessage", "ReceivedMessage", "DeletedAccount"],
            "nothing arrives after unregister")
        let texts = kinds(run, "event").compactMap { ($0["value"] as? [String: String])?["text"] }
        #expect(texts == ["welcome to karc, jill@example.com", "re: hello (to jill@example.com)", "re: how are you? (to jill@example.com)"])
        #expect((kinds(run, "reply").first?["value"] as? [String: [String: String]]) == ["success": ["email": "jill@example.com"]])
    }

    @Test func everyKindOfError() async throws {
        let run = try await run("errors.karc", ["--keep-going"])
        #expect(run.status == 1)
        let errors = kinds(run, "error")
        #expect(errors.map { $0["line"] as? Int } == [3, 5, 7, 9, 11, 13, 15, 32, 34, 36, 38, 41])
        #expect(errors.allSatisfy { ($0["script"] as? String)?.hasSuffix("scripts/demo/errors.karc") == true })
        let messages = errors.compactMap { $0["message"] as? String }
        #expect(messages[4] == "identity.login: missing required field password=String")
        #expect(
            messages[5] == "identity.login failed: email must be an email address like name@example.com; password must be at least 6 characters long")
    }

    @Test func theTourRunsEverythingAndShowsTwoMistakes() async throws {
        let run = try await run("tour.karc", ["--keep-going"])
        #expect(run.status == 1, "the two mistakes it shows on purpose")
        #expect(
            kinds(run, "error").compactMap { $0["message"] as? String }.map { $0.prefix(22) } == ["unknown command 'incre", "unknown field 'titel' "])
        #expect(kinds(run, "redirect").count == 2)
        #expect(kinds(run, "event").count == 7)
        #expect(kinds(run, "timing").count == 1)
        #expect(kinds(run, "setting").map { $0["value"] as? String } == ["on", "off", "summary", "on"])
        #expect(kinds(run, "log").contains { ($0["message"] as? String)?.hasPrefix("wrote /tmp/KarcTourTests.swift: 28 commands") == true })
    }
}
