import Compose
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

    /// `identity.login email=String password=String`
    public struct Login: Sendable, Codable {
        public var email: String
        public var password: String

        public init(email: String, password: String) {
            self.email = email
            self.password = password
        }

        @ValidationBuilder
        var validation: Validation {
            Field(email, named: "email", rules: .nonEmpty, .email)
            Field(password, named: "password", rules: .length(6...))
        }
    }

    /// `identity.logout`
    public struct Logout: Sendable, Codable {
        public init() {}
    }

    func login(_ login: Login) throws {
        let validation = login.validation
        guard validation.isValid else { throw InvalidInput(errors: validation.errors) }
        state.user = User(email: login.email)
    }

    func logout() {
        state.user = nil
    }
}

/// Input that broke validation rules; its description lists their messages.
public struct InvalidInput: Error, CustomStringConvertible {
    public let errors: [String]
    public var description: String { errors.joined(separator: "; ") }
}
