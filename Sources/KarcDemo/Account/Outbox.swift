/// Outgoing messages waiting for the next swap; each `post` returns once its
/// message has left (or throws when messaging stops first).
actor Outbox {
    private var waiting: [(message: EncryptedMessage, sent: CheckedContinuation<Void, any Error>)] = []
    private var isClosed = false

    func post(_ message: EncryptedMessage) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            if isClosed {
                continuation.resume(throwing: MessagingStopped())
            } else {
                waiting.append((message, continuation))
            }
        }
    }

    /// Takes every waiting message; `confirm` the batch once it has left.
    func take() -> [(message: EncryptedMessage, sent: CheckedContinuation<Void, any Error>)] {
        defer { waiting = [] }
        return waiting
    }

    /// Fails every waiting message, and every later one.
    func close() {
        isClosed = true
        for entry in take() { entry.sent.resume(throwing: MessagingStopped()) }
    }
}

public struct MessagingStopped: Error, CustomStringConvertible {
    public var description: String { "messaging stopped before the message left (the account was unregistered)" }
}
