import Foundation
import Testing

/// A page open on a session that runs a piped script at full speed
/// (Tests/Browser/fast_script.py, headless chromium): the page keeps up,
/// counts every command, says in one notice what it left out, and shows
/// the one that failed. The page is sent 50 messages a second past a burst
/// of 50 (`KARC_INSPECT_RATE`), so the script outruns it however slow the
/// machine (under ThreadSanitizer, at the standard 1,000, it did not).
@Suite(.timeLimit(.minutes(3)))
struct InspectorFastScriptTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/fast_script.py").path

    @Test func aPageKeepsUpWithAFastScriptAndSaysWhatItLeftOut() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "no chromedriver: make test installs it (scripts/setup.sh --test)")
        let karc = try ChildProcess.start(
            [KarcRun.binaryPath, "--inspect", "--json", "--keep-going", "--fresh", "--tick", "3600s"],
            environment: ProcessInfo.processInfo.environment.merging(["KARC_INSPECT_RATE": "50"]) { $1 }, keepsInput: true)
        karc.write("counter.increment\n")
        #expect(await karc.until { $0.stderr.contains("?token=") || $0.outputEnded })
        let url = try #require(karc.stderr.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}/).map { String($0.output) })
        let half = 10_000
        // Command 1 ran; then half the script, a mistake, and the other half.
        let failing = 1 + half + 1
        let browser = try ChildProcess.start(["/usr/bin/python3", Self.page, url, "\(failing + half)", "\(failing)"])
        #expect(await browser.until { $0.stdout.contains("live\n") || $0.outputEnded }, "\(browser.stdout)\(browser.stderr)")
        let increments = String(repeating: "counter.increment\n", count: half)
        karc.write(increments + "counter.nosuch\n" + increments)
        karc.closeInput()
        #expect(await karc.ending() == .exited(1), "the mistake is the script's exit status")
        #expect(await browser.ending() == .exited(0), "\(browser.stdout)\(browser.stderr)")
        #expect(browser.stdout.hasSuffix("ok\n"), "\(browser.stdout)\(browser.stderr)")
    }
}
