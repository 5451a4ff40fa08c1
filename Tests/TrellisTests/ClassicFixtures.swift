import Trellis

/// The seed's user actions, with `.noop` ignored by everybody and `.postpone` for the "postpone until" pattern.
indirect enum UserAction: Action, Equatable {
    case login
    case accountReady
    case fetchArticles
    case fetchFavs
    case fail
    case postpone(UserAction)
    case noop
}

/// Logs what it received; `.fetchFavs` answers with a follow-up flow.
actor UserService: ReceivingService, StatefulModel {
    var received: [UserAction] = []
    var state: Int { received.count }

    func receive(_ action: UserAction) async throws -> ActionFlow<UserAction> {
        received.append(action)
        switch action {
        case .fail: throw Boom()
        case .fetchFavs: return .single(action: .fetchArticles).then(.noop)
        default: return .noop
        }
    }
}

/// Logs each call as `tag.pre(action)`, `tag.post(action)`, `tag.failure(action)` into a shared recorder.
struct LoggingMiddleware: Middleware {
    let tag: String
    let log: Recorder<String>
    var redirects: [UserAction: ActionFlow<UserAction>] = [:]
    var throwsOn: UserAction?

    func pre(action: UserAction) async throws -> Rewrite<UserAction> {
        log.append("\(tag).pre(\(action))")
        if action == throwsOn { throw Boom() }
        if let flow = redirects[action] { return .redirect(to: flow) }
        return .none
    }

    func post(action: UserAction) async { log.append("\(tag).post(\(action))") }

    func failure(action: UserAction, error: any Error) async { log.append("\(tag).failure(\(action))") }
}

extension UserAction: Hashable {}

/// The seed README's "postpone until" middleware: while nobody is signed in,
/// actions wait; `.accountReady` replays them after itself.
actor PostponingMiddleware: Middleware {
    var signedIn = false
    var postponedActions: ActionFlow<UserAction> = .noop

    func pre(action: UserAction) throws -> Rewrite<UserAction> {
        switch action {
        case .accountReady:
            signedIn = true
            let flow = action.then(flow: postponedActions)
            postponedActions = .noop
            return .redirect(to: flow)
        case .login:
            return .none
        default:
            break
        }
        if !signedIn {
            return .redirect(to: .single(action: .postpone(action)))
        }
        return .none
    }

    func post(action: UserAction) {
        if case .postpone(let other) = action {
            postponedActions = postponedActions.then(other)
        }
    }
}
