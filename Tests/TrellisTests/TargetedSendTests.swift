import Testing
import Trellis

/// `send(action:to:)` reaches only the target it names (the shell's `a.reset`).
@Suite(.timeLimit(.minutes(1)))
struct TargetedSendTests {
    struct Reset: Action {}
    struct Count: Equatable, Sendable { var resets = 0 }

    func twoStores() async throws -> Cluster {
        try await Bootstrap {
            Group {
                Store(model: Count.self).mutate(on: Reset.self) { c, _, _ in c.resets += 1 }
                    .with(model: Count()).named("a")
                Store(model: Count.self).mutate(on: Reset.self) { c, _, _ in c.resets += 1 }
                    .with(model: Count()).named("b")
            }
        }
    }

    func resets(_ cluster: Cluster, _ name: String) async -> Int? {
        (await cluster.target(named: name)?.state?() as? Count)?.resets
    }

    @Test func onlyTheNamedTargetHandlesTheAction() async throws {
        let cluster = try await twoStores()
        try await cluster.send(action: Reset(), to: "a")
        try await cluster.send(action: Reset(), to: "a")
        #expect(await resets(cluster, "a") == 2)
        #expect(await resets(cluster, "b") == 0)
        // Without a target, both take it.
        try await cluster.send(action: Reset())
        #expect(await resets(cluster, "a") == 3)
        #expect(await resets(cluster, "b") == 1)
    }

    @Test func anUnknownTargetOrATargetThatDoesNotTakeTheTypeIsAnError() async throws {
        let cluster = try await twoStores()
        await #expect(throws: TrellisError.unknownTarget(name: "c", targets: ["a", "b"])) {
            try await cluster.send(action: Reset(), to: "c")
        }
        await #expect(throws: TrellisError.unhandledAction(type: "Int")) {
            try await cluster.send(action: 1, to: "a")
        }
    }

    @Test func errorTransformsAboveTheTargetStillApply() async throws {
        struct Failing: Action {}
        struct Recovered: Action {}
        struct Failure: Error {}
        let cluster = try await Bootstrap {
            Group {
                Store(model: Count.self)
                    .mutate(on: Failing.self) { _, _, _ in throw Failure() }
                    .mutate(on: Recovered.self) { c, _, _ in c.resets += 1 }
                    .with(model: Count()).named("a")
            }
            .transformError { _ in Recovered() }
        }
        try await cluster.send(action: Failing(), to: "a")
        #expect(await resets(cluster, "a") == 1)
    }
}
