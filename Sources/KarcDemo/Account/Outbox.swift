import KarcAsync

/// Outgoing messages waiting for the next swap; each `post` returns once its
/// message has left, or throws when messaging stops first or its task is
/// cancelled (so a pipeline stopping with messages waiting is never stuck).
actor Outbox {
    /// Each message with the trace it was sent in, and its sender waiting for it to leave.
    private var waiting: [(message: EncryptedMessage, context: TraceCarrier?, sent: CheckedContinuation<Void, any Error>)] = []
    /// The post each waiting message came from, in the same order as `waiting`.
    private var posts: [UInt64] = []
    private var lastPost: UInt64 = 0
    private var isClosed = false

    func post(_ message: EncryptedMessage, context: TraceCarrier?) async throws {
        lastPost += 1
        let post = lastPost
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if isClosed {
                    continuation.resume(throwing: MessagingStopped())
                } else if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiting.append((message, context, continuation))
                    posts.append(post)
                }
            }
        } onCancel: {
            // Cancelled after the message was queued: take it back out.
            Task { await self.withdraw(post) }
        }
    }

    private func withdraw(_ post: UInt64) {
        guard let index = posts.firstIndex(of: post) else { return }
        posts.remove(at: index)
        waiting.remove(at: index).sent.resume(throwing: CancellationError())
    }

    /// Takes every waiting message; `confirm` the batch once it has left.
    func take() -> [(message: EncryptedMessage, context: TraceCarrier?, sent: CheckedContinuation<Void, any Error>)] {
        defer {
            waiting = []
            posts = []
        }
        return waiting
    }

    /// Fails every waiting message, and every later one.
    func close() {
        isClosed = true
        for entry in take() { entry.sent.resume(throwing: MessagingStopped()) }
    }
}

package struct MessagingStopped: Error, CustomStringConvertible {
    package var description: String { "messaging stopped before the message left (the account was unregistered)" }
}
