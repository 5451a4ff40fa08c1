import Compose
import KarcCommand
import Trellis

/// `identity`: who is signed in. Credentials are checked with Compose
/// validation; a rejected login leaves the state as it was.
package actor IdentityModel: StatefulModel, ResettableModel, Restorable {
    @Memberwise
    package struct User: Equatable, Sendable, Codable {
        package var email: String

        package init(email: String) { self.email = email }
    }

    @Memberwise
    package struct State: Equatable, Sendable, Codable {
        package var user: User?
    }

    package private(set) var state = State()

    package init() {}

    package var isSignedIn: Bool { state.user != nil }

    /// Signed out, as the cluster started, for the cluster's reset (`:reset`):
    /// else a reset puts `articles` back to no owner and leaves a user signed in.
    package func reset() {
        state = State()
    }

    /// Who was signed in before, for `:restore` and `:undo`.
    package func restore(_ state: State) {
        self.state = state
    }

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
package enum IdentityAction: Action, Codable, Equatable {
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
package struct InvalidInput: Error, CustomStringConvertible {
    package let errors: [String]
    package var description: String { errors.joined(separator: "; ") }
}
