import Foundation
import Testing

/// A session watched by a page ends on a signal as it does without one: at
/// once, with the signal's status, and the page is told the session ended
/// (it says so instead of trying again).
@Suite(.timeLimit(.minutes(1)))
struct InspectSignalTests {
    static let watcher = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/watch_events.py").path

    @Test(arguments: [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)] as [(Int32, Int32)])
    func aSignalEndsTheSessionAndThePageIsTold(signal: Int32, status: Int32) async throws {
        let karc = try ChildProcess.start([KarcRun.binaryPath, "--inspect", "--fresh", "--tick", "3600s"], keepsInput: true)
        karc.write("counter.increment\n")
        #expect(await karc.until { $0.stderr.contains("?token=") || $0.outputEnded })
        let url = try #require(karc.stderr.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}/).map { String($0.output) })
        let page = try ChildProcess.start(["/usr/bin/python3", Self.watcher, url])
        #expect(await page.until { $0.stdout.contains("open") || $0.outputEnded }, "\(page.stderr)")
        karc.send(signal)
        #expect(await karc.ending() == .exited(status))
        #expect(await page.ending() == .exited(0))
        #expect(page.stdout.hasSuffix("closed 1001 the session ended\n"), "\(page.stdout)\(page.stderr)")
    }
}
