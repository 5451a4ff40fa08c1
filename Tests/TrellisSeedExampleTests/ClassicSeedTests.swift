// The Trellis classic seed README's example, with the mechanical changes of
// docs/porting.md: services are `ReceivingService` actors, the state the
// seed shares through `@Dependency` is an actor handed to both, and `pre`
// ends with `return .none`.
import Testing
import Trellis

enum GatekeeperAction: Action {
    case login(email: String, password: String)
    case logout
    case resetPassword
}

enum UserAction: Action, Equatable {
    case fetchArticles
    case fetchFavs
    case update(username: String)
    // `.noop` is a special action that's ignored by everybody
    case noop
}

enum User: Equatable, Sendable {
    case unauthenticated
    case authenticated(String)
}

/// The gatekeeper state. It can be read by other services, but only the auth service changes it.
actor GatekeeperState {
    var user: User = .unauthenticated
    func set(_ user: User) { self.user = user }
}

// An example of a middleware blocking all user actions until an authenticated user is present
struct GatekeeperMiddleware: Middleware {
    let state: GatekeeperState
    let log: Log

    func pre(action: UserAction) async throws -> Rewrite<UserAction> {
        await log.add("pre \(action)")
        if await state.user == .unauthenticated {
            return .redirect(to: .single(action: .noop))
        }
        return .none
    }

    func post(action: UserAction) async { await log.add("post \(action)") }
}

// The service is handling all authentication-related actions.
actor AuthService: ReceivingService {
    let state: GatekeeperState

    init(state: GatekeeperState) { self.state = state }

    func receive(_ action: GatekeeperAction) async throws -> ActionFlow<GatekeeperAction> {
        switch action {
        case .login(let username, _):
            // make the server login call, update the state after login
            await state.set(.authenticated(username))
        case .logout:
            await state.set(.unauthenticated)
        case .resetPassword:
            break
        }
        return .noop
    }
}

actor ArticlesService: ReceivingService {
    let log: Log
    init(log: Log) { self.log = log }

    func receive(_ action: UserAction) async throws -> ActionFlow<UserAction> {
        await log.add("service \(action)")
        return .noop
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ClassicSeedTests {
    @Test func theGatekeeperRedirectsUserActionsToNoopUntilSomeoneLogsIn() async throws {
        let state = GatekeeperState()
        let log = Log()
        let cluster = try await Bootstrap {
            AuthService(state: state)
            ArticlesService(log: log)
                .middleware(GatekeeperMiddleware(state: state, log: log))
        }

        try await cluster.send(action: UserAction.fetchArticles)
        #expect(await log.entries == ["pre fetchArticles", "service noop", "post noop"])

        try await cluster.send(action: GatekeeperAction.login(email: "ada@example.com", password: "secret"))
        try await cluster.send(action: UserAction.fetchFavs)
        #expect(await log.entries.suffix(3) == ["pre fetchFavs", "service fetchFavs", "post fetchFavs"])

        let outcomes = cluster.history.map { entry -> String in
            switch entry.outcome {
            case .handled: return "\(entry.action): handled"
            case .redirected(let by, let to): return "\(entry.action): redirected by \(by) to \(to.map { "\($0)" })"
            case .failed(let error): return "\(entry.action): failed \(error)"
            }
        }
        #expect(outcomes.first == #"fetchArticles: redirected by GatekeeperMiddleware to ["noop"]"#)
        #expect(outcomes.last == "fetchFavs: handled")
    }
}
