import Foundation
import Testing

@testable import KarcSession
@testable import KarcShell

/// Standard input as the shell reads it: on a thread of its own, lines as
/// `readLine` gives them, however the bytes arrive.
@Suite("Standard input lines", .timeLimit(.minutes(1)))
struct StandardInputLinesTests {
    /// The lines read from a FIFO fed `chunks`, one write each. A FIFO, not a
    /// pipe: both ends open close-on-exec at once, so no child another test
    /// spawns meanwhile can hold the write end open and keep the end of input away.
    func lines(fedWith chunks: [[UInt8]]) async -> [String] {
        let path = NSTemporaryDirectory() + "karc-stdin-\(UUID().uuidString)"
        guard mkfifo(path, 0o600) == 0 else { return ["no fifo"] }
        defer { unlink(path) }
        Thread {
            let writer = open(path, O_WRONLY | O_CLOEXEC)
            for chunk in chunks {
                _ = chunk.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                usleep(2_000)  // separate reads, so lines are split across them
            }
            close(writer)
        }.start()
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        let reader = StandardInputLines(fd: fd)
        var lines: [String] = []
        while let line = await reader.next() { lines.append(line) }
        close(fd)
        return lines
    }

    @Test func linesEndingsAndSplitsAreHandledAsReadLineDoes() async {
        let lines = await lines(fedWith: [Array("one\r\ntw".utf8), Array("o\n\nthr".utf8), [0xFF, 0x0A], Array("last".utf8)])
        #expect(lines == ["one", "two", "", "thr\u{FFFD}", "last"])
    }

    @Test func nothingGivesNoLinesAndAFinalNewlineNoEmptyLine() async {
        #expect(await lines(fedWith: []) == [])
        #expect(await lines(fedWith: [Array("a\n".utf8)]) == ["a"])
    }

    @Test func aLongScriptArrivesWhole() async {
        let script = (1...20_000).map { "counter.increment value=\($0)" }
        let lines = await lines(fedWith: [Array((script.joined(separator: "\n") + "\n").utf8)])
        #expect(lines == script)
    }
}
