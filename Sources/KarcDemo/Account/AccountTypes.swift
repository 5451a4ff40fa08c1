import Karc
import KarcCommand

/// The account model's state: the registered account, if any.
@Memberwise
package struct AccountState: Equatable, Initable, Sendable, Codable {
    package var account: Account?
    package init() {}
    package init(account: Account?) { self.account = account }
}

@Memberwise
package struct Account: Equatable, Sendable, Codable {
    package var email: String

    package init(email: String) { self.email = email }
}

/// Commands of `account` (the shell's `account.register`, …).
package protocol AccountCommand: Sendable {}

package enum AccountCommands {
    /// Registers an account; replies `.success(account)`, or `.failure` when
    /// an account exists or the input is invalid. Its messaging starts.
    @Command
    package struct Register: AccountCommand, Codable {
        /// An email address.
        package var userEmail: String
        /// At least 6 characters.
        package var userPassword: String

        package init(userEmail: String, userPassword: String) {
            self.userEmail = userEmail
            self.userPassword = userPassword
        }
    }

    /// Deletes the account; its messaging stops.
    @Command
    package struct Unregister: AccountCommand, Codable {
        package init() {}
    }

    /// Sends a message with the next swap, and replies once it left; six can
    /// wait at once, a seventh is refused. The answer comes a tick later.
    @Command
    package struct DispatchOutgoingMessage: AccountCommand, Codable {
        /// The text.
        package var message: String

        package init(message: String) { self.message = message }
    }
}

/// Events of `account`.
package protocol AccountEvent: Sendable {}

@Memberwise
package struct UpdatedAccount: AccountEvent, Equatable, Codable {
    package let account: Account
}

@Memberwise
package struct DeletedAccount: AccountEvent, Equatable, Codable {
    package let account: Account
}

/// A reply from the message server, delivered by a swap.
@Memberwise
package struct ReceivedMessage: AccountEvent, Equatable, Codable {
    package let text: String
}

package enum AccountEffect: Sendable {
    case updatingAccount(Account)
    case deletingAccount
    case receiving(String)
}

/// Why `register` failed.
package enum AccountError: Error, Equatable, CustomStringConvertible {
    case alreadyRegistered(email: String)
    case invalid([String])

    package var description: String {
        switch self {
        case .alreadyRegistered(let email): "an account is already registered (\(email)); unregister first"
        case .invalid(let errors): errors.joined(separator: "; ")
        }
    }
}

/// A message on the wire: its text, reversed (the seed's "encryption").
package struct EncryptedMessage: Equatable, Sendable {
    package let cipher: String

    init(encrypting text: String) { cipher = String(text.reversed()) }
    init(cipher: String) { self.cipher = cipher }

    var decrypted: String { String(cipher.reversed()) }
}
