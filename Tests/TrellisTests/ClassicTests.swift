import Testing
import Trellis

@Suite(.timeLimit(.minutes(1)))
struct ClassicMiddlewareTests {
    @Test func preRunsBeforeTheServicesAndPostAfterThemInRegistrationOrder() async throws {
        let log = Recorder<String>()
        let service = UserService()
        let cluster = try await Bootstrap {
            service
                .middleware(LoggingMiddleware(tag: "first", log: log))
                .middleware(LoggingMiddleware(tag: "second", log: log))
        }
        try await cluster.send(action: UserAction.login)
        #expect(log.all == ["first.pre(login)", "second.pre(login)", "first.post(login)", "second.post(login)"])
        #expect(await service.received == [.login])
    }

    @Test func theFirstRedirectWinsAndReplacesTheAction() async throws {
        let log = Recorder<String>()
        let service = UserService()
        let cluster = try await Bootstrap {
            service
                .middleware(LoggingMiddleware(tag: "gate", log: log, redirects: [.fetchArticles: .single(action: .noop)]))
                .middleware(LoggingMiddleware(tag: "later", log: log, redirects: [.fetchArticles: .single(action: .login)]))
        }
        let observation = cluster.observe()
        let reply = try await cluster.send(action: UserAction.fetchArticles)

        #expect(reply == nil)
        #expect(await service.received == [.noop])
        // The redirect's actions skip `pre`, but `post` sees them.
        #expect(log.all == ["gate.pre(fetchArticles)", "gate.post(noop)", "later.post(noop)"])
        let outcomes = cluster.history.map { "\($0.action) \($0.outcome)" }
        #expect(outcomes.count == 2)
        #expect(outcomes.first?.hasPrefix("fetchArticles redirected(by: \"LoggingMiddleware\"") == true)
        #expect(outcomes.last == "noop handled")
        var redirected: [String] = []
        for await record in observation {
            if case .redirected(let sequence, _, let by, let to) = record.kind { redirected.append("\(sequence) \(by) \(to)") }
            if case .sent(2, _, _) = record.kind { break }
        }
        #expect(redirected == ["1 LoggingMiddleware [TrellisTests.UserAction.noop]"])
    }

    @Test func aRedirectReplacesOneActionAndTheRestOfTheFlowGoesOn() async throws {
        let log = Recorder<String>()
        let service = UserService()
        let cluster = try await Bootstrap {
            service.middleware(LoggingMiddleware(tag: "m", log: log, redirects: [.fetchArticles: .single(action: .login)]))
        }
        // `.fetchFavs` returns the flow [fetchArticles, noop]; fetchArticles becomes login.
        try await cluster.send(action: UserAction.fetchFavs)
        #expect(await service.received == [.fetchFavs, .login, .noop])
    }

    @Test func aFollowUpFlowRunsAfterPostAndBeforeSendReturns() async throws {
        let log = Recorder<String>()
        let service = UserService()
        let cluster = try await Bootstrap {
            service.middleware(LoggingMiddleware(tag: "m", log: log))
        }
        try await cluster.send(action: UserAction.fetchFavs)
        #expect(
            log.all == [
                "m.pre(fetchFavs)", "m.post(fetchFavs)",
                "m.pre(fetchArticles)", "m.post(fetchArticles)",
                "m.pre(noop)", "m.post(noop)",
            ])
        #expect(cluster.history.map { "\($0.action)" } == ["fetchFavs", "fetchArticles", "noop"])
    }

    @Test func aServiceErrorReachesEveryMiddlewaresFailureAndTheSender() async throws {
        let log = Recorder<String>()
        let cluster = try await Bootstrap {
            UserService()
                .middleware(LoggingMiddleware(tag: "a", log: log))
                .middleware(LoggingMiddleware(tag: "b", log: log))
        }
        await #expect(throws: Boom()) { try await cluster.send(action: UserAction.fail) }
        #expect(log.all == ["a.pre(fail)", "b.pre(fail)", "a.failure(fail)", "b.failure(fail)"])
        guard case .failed(let error) = cluster.history.last?.outcome else {
            Issue.record("the history should end with the failure")
            return
        }
        #expect(error as? Boom == Boom())
    }

    @Test func anErrorInPreStopsTheActionBeforeTheServices() async throws {
        let log = Recorder<String>()
        let service = UserService()
        let cluster = try await Bootstrap {
            service
                .middleware(LoggingMiddleware(tag: "a", log: log, throwsOn: .login))
                .middleware(LoggingMiddleware(tag: "b", log: log))
        }
        await #expect(throws: Boom()) { try await cluster.send(action: UserAction.login) }
        #expect(log.all == ["a.pre(login)", "a.failure(login)", "b.failure(login)"])
        #expect(await service.received.isEmpty)
    }

    @Test func anActionNobodyHandlesFailsEvenWithAMiddlewareThatLetsItThrough() async throws {
        let log = Recorder<String>()
        let cluster = try await Bootstrap {
            EmptyService().middleware(LoggingMiddleware(tag: "m", log: log))
        }
        await #expect(throws: TrellisError.unhandledAction(type: "UserAction")) {
            try await cluster.send(action: UserAction.login)
        }
        #expect(log.all == ["m.pre(login)", "m.failure(login)"])
    }

    @Test func aMiddlewareCanHandleAnActionNoServiceTakesByRedirectingIt() async throws {
        let log = Recorder<String>()
        let service = UserService()
        let cluster = try await Bootstrap {
            Group {
                service
                EmptyService().middleware(LoggingMiddleware(tag: "m", log: log, redirects: [.fetchArticles: .single(action: .login)]))
            }
        }
        try await cluster.send(action: UserAction.fetchArticles)
        #expect(await service.received == [.login])
    }

    @Test func postponedActionsRunOnceTheAccountIsReady() async throws {
        let service = UserService()
        let cluster = try await Bootstrap {
            service.middleware(PostponingMiddleware())
        }
        try await cluster.send(action: UserAction.fetchArticles)
        try await cluster.send(action: UserAction.fetchFavs)
        #expect(await service.received == [.postpone(.fetchArticles), .postpone(.fetchFavs)])

        try await cluster.send(action: UserAction.accountReady)
        // fetchFavs' own follow-up flow (fetchArticles, noop) runs too, now let through.
        #expect(
            await service.received == [
                .postpone(.fetchArticles), .postpone(.fetchFavs),
                .accountReady, .fetchArticles, .fetchFavs, .fetchArticles, .noop,
            ])
    }

    @Test func aStatefulReceivingServiceReportsItsChanges() async throws {
        let cluster = try await Bootstrap { UserService().named("users") }
        let observation = cluster.observe()
        try await cluster.send(action: UserAction.login)
        var changes: [String] = []
        for await record in observation {
            if case .stateChanged(let source, let old, let new) = record.kind { changes.append("\(source) \(old) → \(new)") }
            if case .sent(2, _, _) = record.kind { break }
            if changes.count == 1 { break }
        }
        #expect(changes == ["users 0 → 1"])
        #expect(cluster.target(named: "users")?.kind == .service)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ActionHistoryTests {
    @Test func theHistoryKeepsTheLastActionsInOrderUpToItsCapacity() async throws {
        let cluster = try await Bootstrap(historyCapacity: 3) { UserService() }
        for action in [UserAction.login, .fetchArticles, .noop, .accountReady, .login] {
            try await cluster.send(action: action)
        }
        #expect(cluster.history.map { "\($0.action)" } == ["noop", "accountReady", "login"])
        #expect(cluster.history.map(\.sequence) == [3, 4, 5])
    }

    @Test func theHistoryCanBeCleared() async throws {
        let cluster = try await Bootstrap { UserService() }
        try await cluster.send(action: UserAction.login)
        cluster.clearHistory()
        #expect(cluster.history.isEmpty)
        try await cluster.send(action: UserAction.noop)
        #expect(cluster.history.map { "\($0.action)" } == ["noop"])
    }

    @Test func aCapacityOfZeroKeepsNothing() async throws {
        let cluster = try await Bootstrap(historyCapacity: 0) { UserService() }
        try await cluster.send(action: UserAction.login)
        #expect(cluster.history.isEmpty)
    }

    @Test func theDefaultCapacityIsAThousand() async throws {
        #expect(Cluster.defaultHistoryCapacity == 1_000)
        let cluster = try await Bootstrap { UserService() }
        for _ in 0..<1_005 { try await cluster.send(action: UserAction.noop) }
        #expect(cluster.history.count == 1_000)
        #expect(cluster.history.first?.sequence == 6)
    }
}
