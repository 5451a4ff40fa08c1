import Foundation
import Testing

/// The inspector as a team uses it on a call: `karc --inspect` with a
/// script kept open (the terminal's side), and headless chromium driving
/// the page (Tests/Browser/inspector_flow.py, selenium): the README's
/// session through the command box, the timeline and its filters, the
/// state tree, why, going back, a watch, and the refusals.
@Suite(.timeLimit(.minutes(2)))
struct InspectorBrowserFlowTests {
    static let flow = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/inspector_flow.py").path

    @Test func aTeamDrivesTheREADMEsSessionFromThePageAndTheTerminalSeesIt() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "no chromedriver: make test installs it (scripts/setup.sh --test)")
        let scratch = NSTemporaryDirectory() + "karc-inspect-flow-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = scratch + "/data"
        environment["XDG_STATE_HOME"] = scratch + "/state"
        environment["XDG_CONFIG_HOME"] = scratch + "/config"
        environment["HOME"] = scratch
        let karc = try ChildProcess.start(
            [KarcRun.binaryPath, "--inspect", "--keep-going", "--fresh", "--tick", "3600s"], environment: environment, keepsInput: true)
        // The terminal's side: the README's first two commands, before any page looks.
        karc.write("counter.increment-by-three\narticles.add title=\"Hello, karc\"\n")
        #expect(await karc.until { $0.stdout.contains("redirected") || $0.outputEnded })
        let url = try #require(karc.stderr.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}/).map { String($0.output) })
        let browser = try await ChildProcess.run(["/usr/bin/python3", Self.flow, url], environment: environment, input: "")
        let said = String(decoding: browser.stdout + browser.stderr, as: UTF8.self)
        #expect(browser.status == 0, "\(said)\nkarc printed:\n\(karc.stdout)")
        #expect(said.hasSuffix("ok\n"))
        // What the page ran, the terminal printed, each said to come from the page.
        #expect(karc.stdout.contains("from the inspector: identity.login email=jill@example.com password=s3cret!"))
        #expect(karc.stdout.contains("from the inspector: :undo 2"))
        #expect(karc.stdout.contains(#"from the inspector: articles.add title="Grüße, Zoë — ça va?""#), "as typed in the page, not as ASCII escapes")
        karc.closeInput()
        _ = await karc.ending()
    }
}
