import KarcAsync

/// The in-process message server that the swap pipe talks to (an `Environ`
/// resource). Each swap hands it the outgoing messages and takes back the
/// replies to the messages of the swap before, so replies arrive a tick
/// after their message left: later, while the user types.
///
/// Each message travels with the trace it was sent in (`TraceCarrier`),
/// and its reply with the same: what arrives is the doing of the command
/// that sent the message, as `:trace` shows.
package actor MessageServer {
    private var pendingReplies: [(message: EncryptedMessage, context: TraceCarrier?)] = []
    private(set) var received: [String] = []

    package init() {}

    func swap(_ outgoing: [(EncryptedMessage, TraceCarrier?)], for account: Account) -> [(message: EncryptedMessage, context: TraceCarrier?)] {
        let replies = pendingReplies
        received += outgoing.map(\.0.decrypted)
        pendingReplies = outgoing.map { message, context in
            (EncryptedMessage(encrypting: "re: \(message.decrypted) (to \(account.email))"), context)
        }
        return replies
    }

    /// A welcome for a new account, sent with the next swap's replies.
    func welcome(_ account: Account, context: TraceCarrier?) {
        pendingReplies.append((EncryptedMessage(encrypting: "welcome to karc, \(account.email)"), context))
    }
}
