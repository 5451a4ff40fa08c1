import Foundation
import Karc
import Trellis
import TrellisCompose

/// The cluster `karc` runs by default: a Flux dispatcher (`counter`), two
/// Trellis stores (`identity`, `articles`) with a classic middleware, a
/// Karc model (`account`) with a live messaging pipeline, and a Compose
/// component tree (`auth`: log in, sign up, reset password).
package enum DemoCluster {
    package struct Options: Sendable {
        /// How often the messaging pipeline swaps messages with the server.
        package var tick: Duration = .seconds(1)
        /// Where the account is persisted; nil: the XDG data directory (`$XDG_DATA_HOME/karc`).
        package var stateDirectory: String?
        /// Keep the account in memory only (a test's cluster): no directory is read or written.
        package var inMemory = false
        /// Ignore what earlier runs persisted.
        package var fresh = false
        /// The id of the account model (one per id in a cluster: each cluster has its own models).
        package var instance = "demo"
        /// The clock the account's swaps wait on (a test's `TestClock`, say).
        package var clock: any Clock<Duration> = ContinuousClock()

        package init() {}
    }

    /// The `Environ` config key of the swap interval.
    static let tickKey = "demo.tick"
    /// The `Environ` config key of the clock the swaps wait on.
    static let clockKey = "demo.clock"

    /// A demo cluster of its own for a test: fresh, its account kept in
    /// memory (nothing is left on disk), its swaps every `tick` of `clock`.
    package static func makeForTesting(tick: Duration = .milliseconds(50), clock: any Clock<Duration> = ContinuousClock()) async throws -> Cluster {
        var options = Options()
        options.tick = tick
        options.clock = clock
        options.inMemory = true
        return try await make(options)
    }

    package static func make(_ options: Options = Options()) async throws -> Cluster {
        let identity = IdentityModel()
        let storage = options.inMemory ? AccountStorage.inMemory() : AccountStorage(directory: options.stateDirectory, fresh: options.fresh)
        let environ = Environ()
            .setConfig(key: tickKey, value: options.tick)
            .setConfig(key: clockKey, value: options.clock)
            .register(acquire: { _ in storage }, release: { _ in })
            .register(acquire: { _ in MessageServer() }, release: { _ in })
        return try await Bootstrap {
            CounterStore().service(actions: [
                CounterStore.Increment.self, CounterStore.IncrementByThree.self, CounterStore.Reset.self,
            ])
            .named("counter")

            Store(model: IdentityModel.self)
                .mutate(on: IdentityAction.self) { model, action, send in
                    switch action {
                    case .login(let email, let password):
                        try model.login(email: email, password: password)
                        // Signing in crosses the cluster: the user's articles, and their account
                        // (whose welcome message comes back a tick later). `:trace on` shows it.
                        try await send(Articles.Load(owner: email))
                        try await send(AccountCommands.Register(userEmail: email, userPassword: password))
                    case .logout: model.logout()
                    }
                }
                .mutate(on: SignInRequired.self) { _, _, _ in }
                .with(model: identity)
                .named("identity")

            Store(model: Articles.self)
                .mutate(on: Articles.Add.self) { articles, add, _ in try articles.add(add) }
                .mutate(on: Articles.Like.self) { articles, like, _ in try articles.like(like) }
                .mutate(on: Articles.Remove.self) { articles, remove, _ in try articles.remove(remove) }
                .mutate(on: Articles.Load.self) { articles, load, _ in articles.load(load) }
                .with(model: Articles())
                .named("articles")
                .middleware(Gatekeeper(identity: identity))

            AccountModel.service(
                .init(environ: environ, id: options.instance),
                commands: [
                    AccountCommands.Register.self, AccountCommands.Unregister.self, AccountCommands.DispatchOutgoingMessage.self,
                ], events: [UpdatedAccount.self, DeletedAccount.self, ReceivedMessage.self]
            )
            .named("account")

            ComponentTreeService(root: AuthComponent())  // the target `auth`
        }
    }
}
