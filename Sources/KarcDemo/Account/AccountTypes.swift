import Karc

/// The account model's state: the registered account, if any.
public struct AccountState: Equatable, Initable, Sendable, Codable {
    public var account: Account?
    public init() {}
}

public struct Account: Equatable, Sendable, Codable {
    public var email: String

    public init(email: String) { self.email = email }
}

/// Commands of `account` (the shell's `account.register`, …).
public protocol AccountCommand: Sendable {}

public enum AccountCommands {
    /// `account.register user-email=String user-password=String`; replies
    /// `.success(account)`, or `.failure` when an account exists or the input is invalid.
    public struct Register: AccountCommand, Codable {
        public var userEmail: String
        public var userPassword: String

        public init(userEmail: String, userPassword: String) {
            self.userEmail = userEmail
            self.userPassword = userPassword
        }
    }

    /// `account.unregister`: deletes the account; the messaging pipeline stops.
    public struct Unregister: AccountCommand, Codable {
        public init() {}
    }

    /// `account.dispatch-outgoing-message message=String`: replies once the
    /// message left with the next swap. Six can wait at once; a seventh is refused.
    public struct DispatchOutgoingMessage: AccountCommand, Codable {
        public var message: String

        public init(message: String) { self.message = message }
    }
}

/// Events of `account`.
public protocol AccountEvent: Sendable {}

public struct UpdatedAccount: AccountEvent, Equatable, Codable {
    public let account: Account
}

public struct DeletedAccount: AccountEvent, Equatable, Codable {
    public let account: Account
}

/// A reply from the message server, delivered by a swap.
public struct ReceivedMessage: AccountEvent, Equatable, Codable {
    public let text: String
}

public enum AccountEffect: Sendable {
    case updatingAccount(Account)
    case deletingAccount
    case receiving(String)
}

/// Why `register` failed.
public enum AccountError: Error, Equatable, CustomStringConvertible {
    case alreadyRegistered(email: String)
    case invalid([String])

    public var description: String {
        switch self {
        case .alreadyRegistered(let email): "an account is already registered (\(email)); unregister first"
        case .invalid(let errors): errors.joined(separator: "; ")
        }
    }
}

/// A message on the wire: its text, reversed (the seed's "encryption").
public struct EncryptedMessage: Equatable, Sendable {
    public let cipher: String

    init(encrypting text: String) { cipher = String(text.reversed()) }
    init(cipher: String) { self.cipher = cipher }

    var decrypted: String { String(cipher.reversed()) }
}
