import Foundation
import TestSupport
import Testing

/// The app side of attach: an app stopped while shells run scripts ends
/// them all at once, each with `connection lost` and status 1.
@Suite(.timeLimit(.minutes(1)))
struct AttachShutdownTests {
    @Test func sigtermWhileEightShellsRunScriptsEndsEachAtOnce() async throws {
        let served = try await ServedDemo()
        // Each would sleep ten minutes in the app: only the app's stop can end them within the time limit.
        let shells = try (0..<8).map { _ in
            try served.startAttach(["-e", "counter.increment", "-e", ":sleep 10m"])
        }
        let process = served.process
        #expect(
            await process.until { $0.stderr.components(separatedBy: "a shell attached").count == 9 },
            "\(process.stderr)")
        for shell in shells {
            #expect(await shell.until { $0.stdout.contains("CounterStore.State") }, "\(shell.stderr)")
        }
        #expect(await served.stop() == 0)
        for (index, shell) in shells.enumerated() {
            #expect(await shell.ending() == .exited(1), "shell \(index)")
            #expect(shell.stderr.contains("connection lost"), "shell \(index): \(shell.stderr)")
        }
    }
}
