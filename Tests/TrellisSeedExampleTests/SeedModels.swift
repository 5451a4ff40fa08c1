// The models and actions the Trellis 0.3 seed README leaves as `// ...`,
// filled in so its examples run. Models are actors, as the seed asks.
import Trellis

enum StartUpAction: Action, Equatable {
    case appDidCompleteLaunching
}

enum IdentityAction: Action, Equatable {
    case login(email: String)
    case logout
    case rejectEmptyEmail
}

enum ArticlesAction: Action, Equatable {
    case add(title: String)
}

enum ErrorAction: Action {
    case error(any Error)
}

struct EmptyEmail: Error, Equatable {}

actor IdentityModel: StatefulModel {
    var user: String?
    var launched = false
    var state: String? { user }

    func signIn(_ email: String) throws {
        guard !email.isEmpty else { throw EmptyEmail() }
        user = email
    }

    func signOut() { user = nil }
    func didLaunch() { launched = true }
}

actor ArticlesModel: StatefulModel {
    var titles: [String] = []
    var state: [String] { titles }

    func add(_ title: String) { titles.append(title) }
}

actor ErrorsModel {
    var errors: [String] = []
    func record(_ error: any Error) { errors.append("\(error)") }
}

/// Records what a store sends, instead of processing it (the seed's "Testing" section).
actor SentActions {
    var all: [String] = []
    func record(_ action: any Sendable) { all.append("\(action)") }
}
