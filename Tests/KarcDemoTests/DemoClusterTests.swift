import Foundation
import KarcDemo
import TestSupport
import Testing
import Trellis

extension DemoCluster.Options {
    /// A cluster of its own (as every cluster is: its models are in its own pool), nothing persisted outside `scratch`.
    static func isolated(in scratch: ScratchDirectory) -> Self {
        var options = Self()
        options.stateDirectory = scratch.path
        options.fresh = true
        return options
    }
}

@Suite(.timeLimit(.minutes(1)))
struct DemoClusterTests {
    let scratch = ScratchDirectory("karc-demo")
    var isolated: DemoCluster.Options { .isolated(in: scratch) }

    func state<S>(_ cluster: Cluster, _ target: String, as type: S.Type) async throws -> S {
        let read = try #require(cluster.target(named: target)?.state)
        return try #require(await read() as? S)
    }

    @Test func theDemoHasItsTargetsWithTheirCommands() async throws {
        let cluster = try await DemoCluster.make(isolated)
        defer { Task { await cluster.shutDown() } }
        #expect(cluster.targets.map(\.name) == ["counter", "identity", "articles", "account", "auth"])
        #expect(cluster.targets.map(\.kind) == [.dispatcher, .store, .store, .model, .components])
    }

    @Test func theCounterIncrementsComposesAndResets() async throws {
        let cluster = try await DemoCluster.make(isolated)
        defer { Task { await cluster.shutDown() } }
        try await cluster.send(action: CounterStore.Increment(value: 2))
        try await cluster.send(action: CounterStore.IncrementByThree())
        #expect(try await state(cluster, "counter", as: CounterStore.State.self).count == 5)
        try await cluster.send(action: CounterStore.Reset())
        #expect(try await state(cluster, "counter", as: CounterStore.State.self).count == 0)
    }

    @Test func aResetSignsOutAsItEmptiesTheArticles() async throws {
        let cluster = try await DemoCluster.make(isolated)
        defer { Task { await cluster.shutDown() } }
        #expect(cluster.unresettableTargets.isEmpty, "every demo target resets")
        try await cluster.send(action: IdentityAction.login(email: "jill@example.com", password: "s3cret!"))
        try await cluster.reset()
        #expect(try await state(cluster, "identity", as: IdentityModel.State.self).user == nil)
        #expect(try await state(cluster, "articles", as: Articles.self).owner == nil)
        // Signed out, as the articles' owner says: the gatekeeper turns the add away.
        try await cluster.send(action: Articles.Add(title: "Nobody's"))
        #expect(try await state(cluster, "articles", as: Articles.self).items.isEmpty)
    }

    @Test func aBadLoginIsRejectedWithTheRulesMessagesAndChangesNothing() async throws {
        let cluster = try await DemoCluster.make(isolated)
        defer { Task { await cluster.shutDown() } }
        await #expect(throws: InvalidInput.self) {
            try await cluster.send(action: IdentityAction.login(email: "jill", password: "123"))
        }
        do {
            try await cluster.send(action: IdentityAction.login(email: "jill", password: "123"))
        } catch {
            #expect("\(error)" == "email must be an email address like name@example.com; password must be at least 6 characters long")
        }
        #expect(try await state(cluster, "identity", as: IdentityModel.State.self).user == nil)
        try await cluster.send(action: IdentityAction.login(email: "jill@example.com", password: "s3cret!"))
        #expect(try await state(cluster, "identity", as: IdentityModel.State.self).user?.email == "jill@example.com")
    }

    @Test func articleActionsAreBlockedUntilSomeoneSignsIn() async throws {
        let cluster = try await DemoCluster.make(isolated)
        defer { Task { await cluster.shutDown() } }
        let observation = cluster.observe()
        try await cluster.send(action: Articles.Add(title: "Hello"))
        #expect(try await state(cluster, "articles", as: Articles.self).items.isEmpty)
        await cluster.settled()
        let redirects = observation.takeAvailable().compactMap { record -> String? in
            if case .redirected(_, _, let by, let to) = record.kind { return "\(by) → \(to)" }
            return nil
        }
        #expect(redirects.count == 1)
        #expect(redirects.first?.hasPrefix("Gatekeeper → [SignInRequired(sign in first") == true, "\(redirects)")

        try await cluster.send(action: IdentityAction.login(email: "jill@example.com", password: "s3cret!"))
        try await cluster.send(action: Articles.Add(title: "Hello"))
        try await cluster.send(action: Articles.Add(title: "World"))
        try await cluster.send(action: Articles.Like(id: 2))
        try await cluster.send(action: Articles.Remove(id: 1))
        let articles = try await state(cluster, "articles", as: Articles.self)
        #expect(articles.items == [Articles.Article(id: 2, title: "World", likes: 1)])
        await #expect(throws: NoSuchArticle.self) { try await cluster.send(action: Articles.Like(id: 9)) }
        await #expect(throws: InvalidInput.self) { try await cluster.send(action: Articles.Add(title: "")) }
    }
}
