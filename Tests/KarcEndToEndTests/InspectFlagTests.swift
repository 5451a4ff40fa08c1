import Foundation
import Testing

/// `karc --inspect` serves the session to a browser and says where; what the
/// shell prints is what it prints without it.
@Suite(.timeLimit(.minutes(1)))
struct InspectFlagTests {
    @Test func theURLGoesToStandardErrorAndTheOutputIsAsWithout() async throws {
        let inspected = try await KarcRun.run(["--inspect", "--fresh", "-e", "counter.increment", "-e", "counter.increment"])
        let plain = try await KarcRun.run(["--fresh", "-e", "counter.increment", "-e", "counter.increment"])
        #expect(inspected.status == 0)
        #expect(inspected.stdout == plain.stdout)
        let line = try #require(inspected.stderr.split(separator: "\n").first)
        #expect(line.wholeMatch(of: /inspector: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}/) != nil, "\(inspected.stderr)")
    }

    @Test func helpSaysWhatItDoes() async throws {
        let help = try await KarcRun.run(["--help"])
        #expect(help.stdout.contains("--inspect"))
        #expect(help.stdout.contains("Serve a live inspector of this session on 127.0.0.1"))
        // An attached shell's session runs in the app: the app serves its page (AttachInspectTests).
        let attach = try await KarcRun.run(["attach", "--help"])
        #expect(attach.stdout.contains("--inspect"))
        #expect(attach.stdout.contains("Ask the app for a live inspector of this session"))
        let serve = try await KarcRun.run(["serve", "--help"])
        #expect(serve.stdout.contains("Serve a live inspector of the app on 127.0.0.1"))
    }
}
