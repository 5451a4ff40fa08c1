// The Trellis 0.3 seed README's examples, with the mechanical changes of
// docs/porting.md (the `// ...` bodies filled in; models injected as values).
import AsyncAlgorithms
import TestSupport
import Testing
import Trellis

// IdentityService.swift
struct IdentityService: Service {
    var body: some Service {
        Store(model: IdentityModel.self)
            .mutate(on: IdentityAction.self) { model, action, send in
                switch action {
                case .login(let email): try model.signIn(email)
                case .logout: model.signOut()
                case .rejectEmptyEmail: break
                }
            }
            .mutate(on: StartUpAction.self) { model, action, send in
                model.didLaunch()
                try await send(IdentityAction.login(email: "restored@example.com"))
            }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct SeedReadmeTests {
    @Test func theOpeningExampleBootstrapsTwoStoresWithAnEmitterAnErrorTransformAndAnObserver() async throws {
        let identityModel = IdentityModel()
        let articlesModel = ArticlesModel()
        let errorsModel = ErrorsModel()
        let observed = Observed()
        let (notificationsStream, notifications) = AsyncStream.makeStream(of: ArticlesAction.self)

        let cluster = try await Bootstrap {
            Group {
                Store(model: IdentityModel.self)
                    .mutate(on: IdentityAction.self) { model, action, send in
                        if case .login(let email) = action { try model.signIn(email) }
                    }
                    .mutate(on: StartUpAction.self) { model, action, send in
                        model.didLaunch()
                    }
                    .with(model: identityModel)
                Store(model: ArticlesModel.self)
                    .mutate(on: ArticlesAction.self) { model, action, send in
                        if case .add(let title) = action { model.add(title) }
                    }
                    .with(model: articlesModel)
                Store(model: ErrorsModel.self)
                    .mutate(on: ErrorAction.self) { model, action, send in
                        if case .error(let error) = action { model.record(error) }
                    }
                    .with(model: errorsModel)
            }
            .emit(using: notificationsStream)
            .transformError {
                ErrorAction.error($0)
            }
            .observe(on: IdentityAction.self) {
                await observed.bump()
            }
        }

        try await cluster.send(action: StartUpAction.appDidCompleteLaunching)
        #expect(await identityModel.launched)

        // Error transform: the failed login becomes an ErrorAction, and the send succeeds.
        try await cluster.send(action: IdentityAction.login(email: ""))
        #expect(await errorsModel.errors == ["EmptyEmail()"])
        #expect(await observed.count == 1)

        // The emitter feeds the services under it.
        notifications.yield(.add(title: "From a notification"))
        // Polls: the seed's README example reads an actor model's state, which has no change hook.
        #expect(await eventually { await articlesModel.titles == ["From a notification"] })
        notifications.finish()
        await cluster.shutDown()
    }

    @Test func aSingleServiceWithItsModelInjected() async throws {
        let identityModel = IdentityModel()
        let cluster = try await Bootstrap {
            IdentityService()
                .with(model: identityModel)
        }
        try await cluster.send(action: StartUpAction.appDidCompleteLaunching)
        #expect(await identityModel.launched)
        #expect(await identityModel.user == "restored@example.com")
    }

    @Test func serialServicesRunInDeclarationOrderAndStopAtTheFirstError() async throws {
        let log = Log()
        let cluster = try await Bootstrap {
            Group {
                Store(model: Log.self).mutate(on: IdentityAction.self) { log, _, _ in log.add("first") }
                Store(model: Log.self).mutate(on: IdentityAction.self) { log, action, _ in
                    log.add("second")
                    if action == .rejectEmptyEmail { throw EmptyEmail() }
                }
                Store(model: Log.self).mutate(on: IdentityAction.self) { log, _, _ in log.add("third") }
            }
            .serial()
            .with(model: log)
        }
        try await cluster.send(action: IdentityAction.logout)
        #expect(await log.entries == ["first", "second", "third"])
        await #expect(throws: EmptyEmail()) { try await cluster.send(action: IdentityAction.rejectEmptyEmail) }
        #expect(await log.entries == ["first", "second", "third", "first", "second"])
    }

    @Test func anEmitterConsumedAtBootstrapHasRunWhenBootstrapReturns() async throws {
        let articlesModel = ArticlesModel()
        let startUp = [ArticlesAction.add(title: "one"), .add(title: "two")].async
        _ = try await Bootstrap {
            Store(model: ArticlesModel.self)
                .mutate(on: ArticlesAction.self) { model, action, _ in
                    if case .add(let title) = action { model.add(title) }
                }
                .with(model: articlesModel)
                .emit(using: startUp, consumeAtBootstrap: true)
        }
        #expect(await articlesModel.titles == ["one", "two"])
    }

    @Test func aRecordingSendReplacesTheClustersInATest() async throws {
        let mockedIdentityModel = IdentityModel()
        let sent = SentActions()
        let recordingSend = Send { await sent.record($0) }

        let cluster = try await Bootstrap {
            IdentityService()
                .with(model: mockedIdentityModel)
                .environment(\.send, recordingSend)
        }

        try await cluster.send(action: StartUpAction.appDidCompleteLaunching)
        // Assert the state of the mocked identity model and the recorded actions
        #expect(await mockedIdentityModel.launched)
        #expect(await mockedIdentityModel.user == nil)
        #expect(await sent.all == ["login(email: \"restored@example.com\")"])
    }

    @Test func aStoreMutationIsSeenByObservers() async throws {
        let cluster = try await Bootstrap {
            IdentityService().with(model: IdentityModel()).named("identity")
        }
        let observation = cluster.observe()
        try await cluster.send(action: IdentityAction.login(email: "ada@example.com"))
        var change: String?
        for await record in observation {
            if case .stateChanged(let source, let old, let new) = record.kind {
                change = "\(source): \(old) → \(new)"
                break
            }
        }
        #expect(change == #"identity: nil → Optional("ada@example.com")"#)
    }
}

actor Observed {
    var count = 0
    func bump() { count += 1 }
}

actor Log {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}
