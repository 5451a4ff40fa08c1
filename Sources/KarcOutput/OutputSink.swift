import Foundation
import KarcAsync
import KarcSynchronization
import Synchronization

/// Where the shell writes: standard output, buffered, and standard error,
/// which first flushes standard output so the two stay in order when they go
/// to the same place.
///
/// A write per command was a fifth of a piped script's time (the reader is
/// woken each time), so output goes out in batches: when 64 KiB are waiting,
/// when ``flushIfDue()`` finds the last write ``interval`` old, whenever
/// the shell is about to wait (for input, `:sleep`, `:wait`, the end), and
/// when a send or a settle is still going after ``interval``
/// (``flushing(ifSlow:)``).
package final class OutputSink: Sendable {
    private struct State {
        package var buffer: [UInt8] = []
        package var lastFlush: ShellClock.Instant
        /// When capturing (``init(capturing:)``): what was written, both streams in order.
        package var captured: [UInt8]?
        /// What each command running wrote, both streams, for `:history N` (``tap(_:exclusive:room:)``).
        package var taps: [(seq: Int, bytes: [UInt8], cut: Int, exclusive: Bool, room: Int)] = []
        /// Held (``hold(_:)``): nothing is written, errors too are kept in order, for the prompt to print above its line.
        package var held = false
        /// Whether a crash signal writes what is buffered (``keepsOutputThroughACrash()``).
        var crashSafe = false

        /// Tells ``CrashOutput`` where the buffer is now.
        func published() {
            if crashSafe { buffer.withUnsafeBytes { CrashOutput.publish($0) } }
        }

        package mutating func tapped(_ text: String, newline: Bool) {
            // An exclusive tap (output of a command that ended) takes it alone.
            let tapping = taps.last?.exclusive == true ? taps.indices.suffix(1) : taps.indices
            for index in tapping {
                let room = taps[index].room - taps[index].bytes.count
                let count = text.utf8.count + (newline ? 1 : 0)
                guard taps[index].cut == 0, count <= room else {
                    taps[index].cut += count
                    continue
                }
                taps[index].bytes.append(contentsOf: text.utf8)
                if newline { taps[index].bytes.append(10) }
            }
        }
    }

    /// What a command's output keeps for `:history N`, at most.
    package static let tapLimit = 16 * 1_024

    /// Locked, so an alarm can write what waits while the shell is waiting itself.
    private let state: KarcMutex<State>
    /// How long output may wait in the buffer while commands keep coming.
    package static let interval: Duration = .milliseconds(10)
    private let output: Int32
    private let errors: Int32
    /// When forwarding (``init(forwarding:room:)``): where each flushed batch goes.
    private let forward: (@Sendable (_ bytes: [UInt8], _ isError: Bool) -> Void)?
    /// Whether the output has room, when it can have none (``OutputRoom``).
    package let room: (any OutputRoom)?

    /// What flushing after ``interval`` reads the time from.
    private let clock: ShellClock

    private init(
        output: Int32, errors: Int32, forward: (@Sendable ([UInt8], Bool) -> Void)?, room: (any OutputRoom)?, capturing: Bool, clock: ShellClock
    ) {
        self.output = output
        self.errors = errors
        self.forward = forward
        self.room = room
        self.clock = clock
        var initial = State(lastFlush: clock.now)
        if capturing { initial.captured = [] } else { initial.buffer.reserveCapacity(1 << 16) }
        state = KarcMutex(initial)
    }

    /// A sink that writes to `output` and `errors`.
    package convenience init(output: Int32 = STDOUT_FILENO, errors: Int32 = STDERR_FILENO, clock: ShellClock = .continuous) {
        self.init(output: output, errors: errors, forward: nil, room: nil, capturing: false, clock: clock)
    }

    /// A sink that hands each batch to `forward` instead of writing it (a
    /// session an attached shell drives: the batches go over the
    /// connection). Batches come in the order written, one stream at a time.
    /// `room` tells whether the far end takes more: the session waits for it
    /// before each command (``OutputRoom``).
    package convenience init(
        forwarding forward: @escaping @Sendable (_ bytes: [UInt8], _ isError: Bool) -> Void, room: (any OutputRoom)? = nil,
        clock: ShellClock = .continuous
    ) {
        self.init(output: -1, errors: -1, forward: forward, room: room, capturing: false, clock: clock)
    }

    /// A sink that keeps what is written, standard output and standard
    /// error in the order written, for ``takeCaptured()`` (`karc check`).
    package convenience init(capturing: Void, clock: ShellClock = .continuous) {
        self.init(output: -1, errors: -1, forward: nil, room: nil, capturing: true, clock: clock)
    }

    /// Everything written since the last call (once flushed), when capturing.
    package func takeCaptured() -> [UInt8] {
        state.withLock { s in
            flush(&s)
            defer { s.captured = s.captured.map { _ in [] } }
            return s.captured ?? []
        }
    }

    /// Writes what is buffered if the process crashes (a trap in a handler
    /// of the app under the shell) before it is flushed: on the signal, to
    /// this sink's standard output (``CrashOutput``). For the one sink that
    /// writes to the terminal or pipe the user reads.
    package func keepsOutputThroughACrash() {
        guard output >= 0 else { return }
        CrashOutput.install(writingTo: output)
        state.withLock { s in
            s.crashSafe = true
            s.published()
        }
    }

    /// Writes `text` and a newline.
    package func write(_ text: String) {
        state.withLock { s in
            s.buffer.append(contentsOf: text.utf8)
            s.buffer.append(10)
            if !s.taps.isEmpty { s.tapped(text, newline: true) }
            if s.buffer.count >= 1 << 16 { flush(&s) }
            s.published()
        }
    }

    /// From now on what is written is kept for the command `seq` too, until
    /// ``untap(_:)``, `room` bytes at most (past them, counted as cut);
    /// `exclusive`: for it alone, not for the commands running (it is output
    /// of a command that ended, printed now, with the room its output left).
    package func tap(_ seq: Int, exclusive: Bool = false, room: Int = OutputSink.tapLimit) {
        state.withLock { $0.taps.append((seq, [], 0, exclusive, room)) }
    }

    /// What was written for the command `seq` since ``tap(_:)``, and how many bytes past the limit were not kept.
    package func untap(_ seq: Int) -> HistoryEntry.CommandOutput {
        state.withLock { s in
            guard let index = s.taps.lastIndex(where: { $0.seq == seq }) else { return HistoryEntry.CommandOutput() }
            let tap = s.taps.remove(at: index)
            var bytes = tap.bytes
            if bytes.last == 10 { bytes.removeLast() }
            return HistoryEntry.CommandOutput(output: String(decoding: bytes, as: UTF8.self), cut: tap.cut)
        }
    }

    /// Writes `text` as it is (a prompt).
    package func writeRaw(_ text: String) {
        state.withLock { s in
            s.buffer.append(contentsOf: text.utf8)
            s.published()
        }
    }

    package func writeError(_ text: String) {
        state.withLock { s in
            if s.held {
                if !s.taps.isEmpty { s.tapped(text, newline: true) }
                s.buffer.append(contentsOf: (text + "\n").utf8)
                s.published()
                return
            }
            flush(&s)
            if !s.taps.isEmpty { s.tapped(text, newline: true) }
            if s.captured != nil {
                s.captured?.append(contentsOf: (text + "\n").utf8)
            } else if let forward {
                forward(Array((text + "\n").utf8), true)
            } else {
                Self.writeAll(Array((text + "\n").utf8), to: errors)
            }
        }
    }

    /// Holds what is written (`true`) until the prompt takes it
    /// (``takeBuffered()``) to print above the line someone is typing: a
    /// command the inspector's page runs there must not write over that line.
    package func hold(_ held: Bool) {
        state.withLock { $0.held = held }
    }

    /// What is buffered, taken instead of written (the prompt prints it above the line).
    package func takeBuffered() -> [UInt8] {
        state.withLock { s in
            defer {
                s.buffer.removeAll(keepingCapacity: true)
                s.published()
            }
            return s.buffer
        }
    }

    package func flush() {
        state.withLock { flush(&$0) }
    }

    /// Writes what is buffered and ends the process with `status`, keeping
    /// the lock to the end: no write can start after the flush, so the
    /// output ends with a whole line (``ScriptSignals``).
    package func flushAndExit(_ status: Int32) -> Never {
        state.withLock { s -> Never in
            s.held = false
            flush(&s)
            _exit(status)
        }
    }

    /// Flushes when the last write is ``interval`` old.
    package func flushIfDue() {
        state.withLock { s in
            guard !s.buffer.isEmpty, clock.now - s.lastFlush >= Self.interval else { return }
            flush(&s)
        }
    }

    /// Runs `operation`; if it takes longer than ``interval``, what is buffered
    /// is written meanwhile (an alarm does it), so output never waits behind
    /// a slow step.
    package func flushing<T>(ifSlow operation: () async throws -> T) async rethrows -> T {
        let alarm = clock.arm(at: clock.now + Self.interval) { [self] in flush() }
        defer { clock.disarm(alarm) }
        return try await operation()
    }

    private func flush(_ s: inout State) {
        guard !s.buffer.isEmpty, !s.held, !(s.crashSafe && CrashOutput.isCrashing) else { return }
        if s.captured != nil {
            s.captured?.append(contentsOf: s.buffer)
        } else if let forward {
            forward(s.buffer, false)
        } else {
            Self.writeAll(s.buffer, to: output)
        }
        s.buffer.removeAll(keepingCapacity: true)
        s.published()
        s.lastFlush = clock.now
    }

    /// Writes every byte to `fd`, retrying interrupted writes; gives up on a closed pipe.
    /// False when the reader is gone (a closed pipe, `errno` says why): nothing more can be shown.
    @discardableResult
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // `raw` is non-empty inside the loop, so its base address exists.
                let written = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
