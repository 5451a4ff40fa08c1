import Foundation
import TestSupport
import Testing

/// A token read just before the app replaced it (an app restarting writes a
/// new one as it starts) is read once more before the shell is refused.
@Suite(.timeLimit(.minutes(1)))
struct AttachTokenTests {
    @Test func aStaleTokenIsReadAgainOnceBeforeTheRefusal() async throws {
        let served = try await ServedDemo()
        let right = try String(contentsOfFile: served.tokenFile, encoding: .utf8)
        // A FIFO hands each read its own token: a stale one first, then the app's. The first is
        // 4 KiB long (padded with spaces), all a token read takes, so that read ends without
        // waiting for the writer; the writer knows it ended when a probe byte finds no reader.
        let fifo = served.scratch.path + "/token.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        signal(SIGPIPE, SIG_IGN)
        let writer = Thread {
            let stale = String(repeating: "0", count: 64) + String(repeating: " ", count: 4096 - 64)
            let fd = open(fifo, O_WRONLY)
            _ = Array(stale.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            var probe: UInt8 = 0x20
            while write(fd, &probe, 1) == 1 { sched_yield() }
            close(fd)
            let again = open(fifo, O_WRONLY)
            _ = Array(right.utf8).withUnsafeBytes { write(again, $0.baseAddress, $0.count) }
            close(again)
        }
        writer.start()
        let run = try await served.attach(["--token-file", fifo, "-e", ":state counter"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("CounterStore.State"))
        // A writer still waiting (the token was read once only) is let go.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        close(reader)
        #expect(await served.stop() == 0)
    }

    @Test func aWrongTokenIsStillRefusedAfterReadingItAgain() async throws {
        let served = try await ServedDemo()
        let wrong = served.scratch.file("wrong.token")
        try (String(repeating: "1", count: 64) + "\n").write(toFile: wrong, atomically: true, encoding: .utf8)
        let run = try await served.attach(["--token-file", wrong, "-e", ":state counter"])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("karc attach: error: the app refused this shell: wrong token "), "\(run.stderr)")
        #expect(await served.stop() == 0)
    }
}
