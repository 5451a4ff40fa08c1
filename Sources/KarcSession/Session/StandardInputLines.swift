import Foundation
import KarcAsync
import Synchronization

/// Lines of standard input, read as they arrive, by a thread of their own:
/// the shell's thread (``ShellExecutor``) must never block in `read`, or
/// work it runs for the cluster would wait for the next line. The thread
/// reads in large chunks, so a piped script of thousands of lines reaches
/// the shell in a few hand-overs, not one per line.
package final class StandardInputLines: LineSource {
    private let queue = LineQueue()

    /// Reads `fd` to its end; with `closing`, closes it then.
    package init(fd: Int32 = STDIN_FILENO, closing: Bool = false) {
        let thread = Thread { [self] in
            read(fd)
            if closing { close(fd) }
        }
        thread.name = "karc-stdin"
        thread.start()
    }

    /// Whether ``next()`` would return without waiting.
    package var hasLineReady: Bool { queue.hasLineReady }

    /// The next line, without its line ending; nil at the end of input.
    package func next() async -> String? {
        await queue.next()
    }

    private func read(_ fd: Int32) {
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
                batch.append(Self.line(pending))
                pending.removeAll(keepingCapacity: true)
                start = index + 1
            }
            pending += buffer[start..<count]
            if !batch.isEmpty { publish(batch, finished: false) }
        }
        publish(pending.isEmpty ? [] : [Self.line(pending)], finished: true)
    }

    /// As `readLine(strippingNewline: true)` gives it: no "\r\n", invalid UTF-8 repaired.
    private static func line(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }

    private func publish(_ batch: [String], finished: Bool) {
        queue.append(batch, finished: finished)
    }
}
