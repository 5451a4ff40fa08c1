import Testing
import Trellis

/// `Bootstrap { … }` from the main actor (as in `@main`'s `static func main()`)
/// and from any task compiles and runs.
@Suite(.timeLimit(.minutes(1)))
struct MainActorBootstrapTests {
    struct Ping: Action {}
    struct Count: Equatable, Sendable { var n = 0 }

    @MainActor
    func bootOnTheMainActor() async throws -> Cluster {
        let cluster = try await Bootstrap {
            Store(model: Count.self).mutate(on: Ping.self) { c, _, _ in c.n += 1 }.with(model: Count()).named("count")
        }
        try await cluster.send(action: Ping())
        return cluster
    }

    @Test func aClusterBootsFromTheMainActor() async throws {
        let cluster = try await bootOnTheMainActor()
        #expect(await cluster.target(named: "count")?.state?() as? Count == Count(n: 1))
    }

    @Test func aClusterBootsFromADetachedTask() async throws {
        let cluster = try await Task.detached {
            try await Bootstrap {
                Store(model: Count.self).mutate(on: Ping.self) { c, _, _ in c.n += 1 }.with(model: Count()).named("count")
            }
        }.value
        try await cluster.send(action: Ping())
        #expect(await cluster.target(named: "count")?.state?() as? Count == Count(n: 1))
    }
}
