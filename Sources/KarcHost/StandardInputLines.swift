import Foundation
import KarcAsync
import Synchronization

/// Lines of standard input, read as they arrive, by a thread of their own:
/// the shell's thread (KarcSession's `ShellExecutor`) must never block in `read`, or
/// work it runs for the cluster would wait for the next line. The thread
/// reads in large chunks, so a piped script of thousands of lines reaches
/// the shell in a few hand-overs, not one per line, and stops reading while
/// 4 MiB of lines wait to run (``LineQueue/appendWaiting(_:finished:)``).
package final class StandardInputLines: LineSource {
    private let queue = LineQueue()

    /// Reads `fd` to its end (or until nobody reads the lines any more);
    /// with `closing`, closes it then.
    package init(fd: Int32 = STDIN_FILENO, closing: Bool = false) {
        // The thread holds the queue, not this object: once the lines are no longer
        // read (a `:source` that failed), `deinit` lets the thread go.
        let queue = self.queue
        let thread = Thread {
            Self.read(fd, into: queue)
            if closing { close(fd) }
        }
        thread.name = "karc-stdin"
        thread.start()
    }

    deinit {
        queue.abandon()
    }

    /// Whether ``next()`` would return without waiting.
    package var hasLineReady: Bool { queue.hasLineReady }

    /// The next line, without its line ending; nil at the end of input.
    package func next() async -> String? {
        await queue.next()
    }

    /// Blocks this thread while the shell has 4 MiB of lines to run: a long
    /// script is read as it runs, not held whole.
    private static func read(_ fd: Int32, into queue: LineQueue) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var batch: [String] = []
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                pending += buffer[start..<index]
                batch.append(line(pending))
                pending.removeAll(keepingCapacity: true)
                start = index + 1
            }
            pending += buffer[start..<count]
            if !batch.isEmpty, !queue.appendWaiting(batch) { return }
        }
        queue.appendWaiting(pending.isEmpty ? [] : [line(pending)], finished: true)
    }

    /// As `readLine(strippingNewline: true)` gives it: no "\r\n", invalid UTF-8 repaired.
    private static func line(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }
}
