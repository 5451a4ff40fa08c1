import Foundation
import TestSupport
import Testing

/// An app whose handler traps under a piped script: what the commands
/// before it printed reaches the pipe before the crash report, though the
/// shell writes its output in batches.
@Suite(.timeLimit(.minutes(2)))
struct CrashOutputTests {
    @Test(arguments: 1...3)
    func whatTheCommandsBeforeACrashPrintedIsWritten(_ attempt: Int) async throws {
        let run = try await KarcRun.run(["--bug", "crash", "--echo"], input: "vault.a\nvault.b\nvault.c\n", binary: ExploreEndToEndTests.planted)
        #expect(run.status != 0)
        #expect(
            run.stdout == """
                > vault.a
                state  vault:
                  - Vault(stage: 0)
                  + Vault(stage: 1)
                > vault.b
                state  vault:
                  - Vault(stage: 1)
                  + Vault(stage: 2)
                > vault.c

                """, "attempt \(attempt)")
        #expect(run.stderr.contains("planted: the vault opened after a, b, c"))
    }
}
