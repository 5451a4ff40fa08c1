/// The in-process message server that the swap pipe talks to (an `Environ`
/// resource). Each swap hands it the outgoing messages and takes back the
/// replies to the messages of the swap before, so replies arrive a tick
/// after their message left: later, while the user types.
package actor MessageServer {
    private var pendingReplies: [EncryptedMessage] = []
    private(set) var received: [String] = []

    package init() {}

    func swap(_ outgoing: [EncryptedMessage], for account: Account) -> [EncryptedMessage] {
        let replies = pendingReplies
        received += outgoing.map(\.decrypted)
        pendingReplies = outgoing.map { EncryptedMessage(encrypting: "re: \($0.decrypted) (to \(account.email))") }
        return replies
    }
}
