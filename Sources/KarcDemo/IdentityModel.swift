import Compose
import KarcCommand
import Trellis

/// `identity`: who is signed in. Credentials are checked with Compose
/// validation; a rejected login leaves the state as it was.
public actor IdentityModel: StatefulModel {
    public struct User: Equatable, Sendable, Codable {
        public var email: String

        public init(email: String) { self.email = email }
    }

    public struct State: Equatable, Sendable, Codable {
        public var user: User?
    }

    public private(set) var state = State()

    public init() {}

    public var isSignedIn: Bool { state.user != nil }

    func login(email: String, password: String) throws {
        let validation = Credentials(email: email, password: password).validation
        guard validation.isValid else { throw InvalidInput(errors: validation.errors) }
        state.user = User(email: email)
    }

    func logout() {
        state.user = nil
    }
}

/// What `identity` takes, in the seeds' enum style (Trellis classic's
/// `GatekeeperAction`): each case is a shell command,
/// `identity.login email=… password=…` and `identity.logout`.
@Command
public enum IdentityAction: Action, Codable, Equatable {
    /// Signs in.
    /// - Parameter email: must look like an email address.
    /// - Parameter password: 6 characters or more.
    case login(email: String, password: String)
    /// Signs out.
    case logout
}

/// What a login is checked against (Compose validation).
struct Credentials {
    var email: String
    var password: String

    @ValidationBuilder
    var validation: Validation {
        Field(email, named: "email", rules: .nonEmpty, .email)
        Field(password, named: "password", rules: .length(6...))
    }
}

/// Input that broke validation rules; its description lists their messages.
public struct InvalidInput: Error, CustomStringConvertible {
    public let errors: [String]
    public var description: String { errors.joined(separator: "; ") }
}
