import Foundation
import Testing

/// The inspector's page in a real browser (Debian's chromium, headless):
/// it connects to the session's events and shows each command with what it
/// caused and how it ended.
@Suite(.timeLimit(.minutes(1)))
struct InspectorPageInBrowserTests {
    @Test func thePageShowsTheCommandsThatRanWithTheirOutcomes() async throws {
        let chromium = "/usr/bin/chromium"
        try #require(FileManager.default.isExecutableFile(atPath: chromium), "no chromium: make test installs it (scripts/setup.sh --test)")
        let scratch = NSTemporaryDirectory() + "karc-inspect-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let script = scratch + "/flow.karc"
        // The session stays while the browser looks: the page is sent what happened before it came.
        try "counter.increment\ncounter.nosuch\narticles.add title=\"hi\"\n:sleep 60s\n".write(toFile: script, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = scratch + "/data"
        environment["XDG_STATE_HOME"] = scratch + "/state"
        environment["XDG_CONFIG_HOME"] = scratch + "/config"
        let karc = try ChildProcess.start([KarcRun.binaryPath, "--inspect", "--keep-going", "--fresh", script], environment: environment)
        #expect(await karc.until { $0.stdout.contains("redirected") || $0.outputEnded })
        let url = try #require(karc.stderr.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}/).map { String($0.output) })
        var dom = ""
        // Polls: a headless browser's page has no signal to wait on; on a loaded machine its messages may come
        // after the dump, so the page is loaded again, a few times at most.
        for _ in 1...5 where !dom.contains("4 commands") {
            let page = try await ChildProcess.run(
                [
                    chromium, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(scratch)/chromium", "--virtual-time-budget=5000",
                    "--dump-dom", url,
                ],
                environment: environment, input: "")
            dom = String(decoding: page.stdout, as: UTF8.self)
        }
        #expect(dom.contains(#"class="status live">live</span>"#), "\(dom)")
        // Each command that ended says how long it took.
        #expect(
            dom.contains(
                /<span class="seq">#1<\/span><span class="text">counter.increment<\/span><span class="duration">\d+\.\d{3} ms<\/span><span class="outcome ok">ok<\/span>/
            ))
        #expect(
            dom.contains(
                /<span class="seq">#2<\/span><span class="text">counter.nosuch<\/span><span class="duration">\d+\.\d{3} ms<\/span><span class="outcome error">error<\/span>/
            ))
        #expect(dom.contains("unknown command 'nosuch' for counter"))
        #expect(dom.contains(#"<span class="seq">#3</span><span class="text">articles.add title="hi"</span>"#))
        #expect(dom.contains("by Gatekeeper"))
        // The sleep the session is in still runs.
        #expect(
            dom.contains(
                #"<span class="seq">#4</span><span class="text">:sleep 60s</span><span class="duration"></span><span class="outcome">running</span>"#)
        )
        #expect(dom.contains("4 commands, 1 failed"))
        _ = await karc.stop()
    }
}
