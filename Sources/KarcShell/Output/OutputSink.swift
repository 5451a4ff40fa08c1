import Foundation

/// Where the shell writes: standard output, buffered, and standard error,
/// which first flushes standard output so the two stay in order when they go
/// to the same place.
///
/// A write per command was a fifth of a piped script's time (the reader is
/// woken each time), so output goes out in batches: when 64 KiB are waiting,
/// when ``flushIfDue()`` finds the last write ``interval`` old, and whenever
/// the shell is about to wait (for input, a slow send, `:sleep`, `:wait`, the end).
final class OutputSink {
    private var buffer: [UInt8] = []
    private var lastFlush = ContinuousClock.now
    /// How long output may wait in the buffer while commands keep coming.
    static let interval: Duration = .milliseconds(10)
    private let output: Int32
    private let errors: Int32

    init(output: Int32 = STDOUT_FILENO, errors: Int32 = STDERR_FILENO) {
        self.output = output
        self.errors = errors
        buffer.reserveCapacity(1 << 16)
    }

    /// Writes `text` and a newline.
    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(10)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `text` as it is (a prompt).
    func writeRaw(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    func writeError(_ text: String) {
        flush()
        Self.writeAll(Array((text + "\n").utf8), to: errors)
    }

    /// What is buffered, taken instead of written (the prompt prints it above the line).
    func takeBuffered() -> [UInt8] {
        defer { buffer.removeAll(keepingCapacity: true) }
        return buffer
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        Self.writeAll(buffer, to: output)
        buffer.removeAll(keepingCapacity: true)
        lastFlush = .now
    }

    /// Flushes when the last write is ``interval`` old.
    func flushIfDue() {
        guard !buffer.isEmpty, ContinuousClock.now - lastFlush >= Self.interval else { return }
        flush()
    }

    /// Writes every byte to `fd`, retrying interrupted writes; gives up on a closed pipe.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // `raw` is non-empty inside the loop, so its base address exists.
                let written = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return  // a closed pipe: nothing more can be shown
                }
                offset += written
            }
        }
    }
}
