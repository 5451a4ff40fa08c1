import KarcAsync
import KarcAttachProtocol
import KarcSession
import KarcSynchronization

/// What an attached session sends its shell, in order, written to the
/// connection by one task. The session never waits to enqueue (its output
/// sink enqueues under a lock); as an ``OutputRoom`` it has no room while
/// more than ``AttachProtocol/outputHighWater`` bytes are unsent, and the
/// session's next command waits for room instead, so a slow shell slows
/// its own session, never the app.
final class Outbox: OutputRoom {
    private struct State {
        var queuedBytes = 0
        var wake: (@Sendable () -> Void)?
        var isClosed = false
        var onClose: [@Sendable () -> Void] = []
    }

    let messages: AsyncStream<Karc_Attach_V1_AppMessage>
    private let continuation: AsyncStream<Karc_Attach_V1_AppMessage>.Continuation
    private let state = KarcMutex(State())
    private let highWater: Int

    /// What this outbox holds, told as it grows, and its waits for room.
    private let gauge: OutputGauge

    init(highWater: Int = AttachProtocol.outputHighWater, gauge: OutputGauge = OutputGauge()) {
        (messages, continuation) = AsyncStream.makeStream()
        self.highWater = highWater
        self.gauge = gauge
    }

    func send(_ message: Karc_Attach_V1_AppMessage, bytes: Int = 0) {
        if bytes > 0 {
            gauge.held(
                state.withLock { s in
                    s.queuedBytes += bytes
                    return s.queuedBytes
                })
        }
        continuation.yield(message)
    }

    func output(_ bytes: [UInt8], isError: Bool) {
        var output = Karc_Attach_V1_Output()
        output.stream = isError ? .stderr : .stdout
        output.text = .init(bytes)
        send(.with { $0.output = output }, bytes: bytes.count)
    }

    /// The writer wrote a message of `bytes` bytes.
    func wrote(bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { s -> (@Sendable () -> Void)? in
            s.queuedBytes -= bytes
            guard s.queuedBytes <= highWater else { return nil }
            return s.wake.take()
        }?()
    }

    /// At most the high-water mark of bytes waits to be written, or the
    /// connection closed (nothing waits for it any more).
    var hasRoom: Bool { state.withLock { $0.queuedBytes <= highWater || $0.isClosed } }

    func onRoom(_ wake: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> (@Sendable () -> Void)? in
            guard s.queuedBytes > highWater, !s.isClosed else { return wake }
            s.wake = wake
            return nil
        }
        if let now { now() } else { gauge.waitedForRoom() }
    }

    /// The connection is gone (``close()``).
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// No more messages: the writer ends once it has written what is queued.
    func finish() {
        continuation.finish()
    }

    /// The connection is gone: nothing waits for it any more.
    func close() {
        let (wake, onClose) = state.withLock { s in
            s.isClosed = true
            defer { s.onClose = [] }
            return (s.wake.take(), s.onClose)
        }
        wake?()
        onClose.forEach { $0() }
        continuation.finish()
    }

    /// Calls `action` once the connection is gone: at once if it is.
    func onClose(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { s in
            if !s.isClosed { s.onClose.append(action) }
            return s.isClosed
        }
        if now { action() }
    }
}
