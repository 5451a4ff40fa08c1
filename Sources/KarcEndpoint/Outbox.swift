import KarcAsync
import KarcAttachProtocol

/// What an attached session sends its shell, in order, written to the
/// connection by one task. The session never waits to enqueue (its output
/// sink enqueues under a lock); a script's next line waits instead while
/// more than ``AttachProtocol/outputHighWater`` bytes are unsent, so a
/// slow shell slows its own session, never the app.
final class Outbox: Sendable {
    private struct State {
        var queuedBytes = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var isClosed = false
    }

    let messages: AsyncStream<Karc_Attach_V1_AppMessage>
    private let continuation: AsyncStream<Karc_Attach_V1_AppMessage>.Continuation
    private let state = KarcMutex(State())
    private let highWater: Int

    init(highWater: Int = AttachProtocol.outputHighWater) {
        (messages, continuation) = AsyncStream.makeStream()
        self.highWater = highWater
    }

    func send(_ message: Karc_Attach_V1_AppMessage, bytes: Int = 0) {
        if bytes > 0 { state.withLock { $0.queuedBytes += bytes } }
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
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.queuedBytes -= bytes
            guard s.queuedBytes <= highWater else { return [] }
            defer { s.waiters = [] }
            return s.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns once at most the high-water mark of bytes waits to be written (or the connection closed).
    func belowHighWater() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { s -> Bool in
                guard s.queuedBytes > highWater, !s.isClosed else { return true }
                s.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    var isBelowHighWater: Bool { state.withLock { $0.queuedBytes <= highWater } }

    /// No more messages: the writer ends once it has written what is queued.
    func finish() {
        continuation.finish()
    }

    /// The connection is gone: nothing waits for it any more.
    func close() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.isClosed = true
            defer { s.waiters = [] }
            return s.waiters
        }
        waiters.forEach { $0.resume() }
        continuation.finish()
    }
}
