// The Trellis classic seed README's examples, with the mechanical changes of
// docs/porting.md: services are `ReceivingService` actors, the
// `@Dependency` state is an actor (a `static let` key value), `pre` ends
// with `return .none`, and awaits where the state is read.
import Testing
import Trellis

// MARK: Core concepts: the introductory service and middleware, with AnyAction.

enum GatekeeperAction: Action {
    case login(email: String, password: String)
    case logout
    case resetPassword
}

// An authentication service
actor GatekeeperService: ReceivingService {
    @Dependency(\.gatekeeperState) var state

    func receive(_ action: GatekeeperAction) async throws -> ActionFlow<AnyAction> {
        switch action {
        case .login(let username, _):
            // make the server login call, update the gatekeeper state etc
            await state.set(.authenticated(username))
        case .logout:
            // clear state, reset the dispatcher, remove any user-persisting data etc
            await state.set(.unauthenticated)
            return .single(action: ResetCluster())
        case .resetPassword:
            break
        }
        return .noop
    }
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

// MARK: The example: the gatekeeper state as a dependency.

// The gatekeeper state. It can be read by other services, but only the gatekeeper service changes it.
actor GatekeeperState {
    static let main = GatekeeperState()
    var user: User = .unauthenticated
    init(user: User = .unauthenticated) { self.user = user }
    func set(_ user: User) { self.user = user }
}

private struct GatekeeperStateKey: DependencyKey {
    static let value: GatekeeperState = .main
}

extension DependencyRepository {
    fileprivate(set) var gatekeeperState: GatekeeperState {
        get { self[GatekeeperStateKey.self] }
        set { self[GatekeeperStateKey.self] = newValue }
    }
}

// A middleware that receives all actions before the service and has the
// opportunity to redirect them. Middlewares, like services, have access to the state.
struct GatekeeperMiddleware: Middleware {
    @Dependency(\.gatekeeperState) var state
    let log: Log

    func pre(action: UserAction) async throws -> Rewrite<AnyAction> {
        await log.add("pre \(action)")
        // If the user is not authenticated, we can redirect to `.noop`, which
        // no service handles, essentially stopping the processing flow.
        if await state.user == .unauthenticated {
            return .redirect(to: .single(action: UserAction.noop))
        }
        return .none
    }

    func post(action: UserAction) async { await log.add("post \(action)") }
}

actor ArticlesService: ReceivingService {
    let log: Log
    init(log: Log) { self.log = log }

    func receive(_ action: UserAction) async throws -> ActionFlow<UserAction> {
        await log.add("service \(action)")
        return .noop
    }
}

struct Favourites: Equatable, Sendable { var ids: [Int] = [] }

@Suite(.timeLimit(.minutes(1)))
struct ClassicSeedTests {
    @Test func theGatekeeperRedirectsUserActionsToNoopUntilSomeoneLogsIn() async throws {
        let log = Log()
        // Each test gets a state of its own: the override is task-local, not a global that another test sees.
        try await DependencyRepository.withValues {
            $0.gatekeeperState = GatekeeperState()
        } operation: {
            let cluster = try await Bootstrap {
                GatekeeperService()
                ArticlesService(log: log)
                    .middleware(GatekeeperMiddleware(log: log))
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
            await cluster.shutDown()
        }
        // Outside the scope, the key's own value again.
        #expect(await GatekeeperState.main.user == .unauthenticated)
    }

    @Test func loggingOutResetsTheCluster() async throws {
        try await DependencyRepository.withValues {
            $0.gatekeeperState = GatekeeperState()
        } operation: {
            let cluster = try await Bootstrap {
                GatekeeperService()
                Store(model: Favourites.self)
                    .mutate(on: Int.self) { favourites, id, _ in favourites.ids.append(id) }
                    .with(model: Favourites())
                    .named("favourites")
            }
            try await cluster.send(action: GatekeeperAction.login(email: "ada@example.com", password: "secret"))
            try await cluster.send(action: 7)
            #expect(await cluster.target(named: "favourites")?.state?() as? Favourites == Favourites(ids: [7]))

            try await cluster.send(action: GatekeeperAction.logout)
            #expect(await cluster.target(named: "favourites")?.state?() as? Favourites == Favourites())
            #expect(cluster.history.map { "\($0.action)" } == ["ResetCluster()"])  // history starts over with the reset
            await cluster.shutDown()
        }
    }
}
