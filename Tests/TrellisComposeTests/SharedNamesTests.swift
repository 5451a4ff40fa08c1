import Compose
import Testing
import Trellis
import TrellisCompose

/// `Store` and `Service` are both Trellis's and Compose's, and neither
/// module imports the other: a file that imports both writes the module's
/// name on each (docs/porting.md, "Names two modules share").
@Suite("Shared names: Trellis and Compose in one file", .timeLimit(.minutes(1)))
struct SharedNamesTests {
    struct Count: Equatable, Sendable { var value = 0 }
    enum Tick: Action, Equatable { case up }

    struct Clock: Compose.Service {
        var started = false
    }

    struct Form: AnyState { var name = "" }

    @Test func eachIsWrittenWithItsModule() async throws {
        let cluster = try await Bootstrap {
            Trellis.Store(model: Count.self)
                .mutate(on: Tick.self) { count, _, _ in count.value += 1 }
                .with(model: Count())
                .named("count")
        }
        _ = try await cluster.send(action: Tick.up, to: "count")
        let form = Compose.Store(wrappedValue: Form())
        form.wrappedValue.name = "ann"
        #expect(form.wrappedValue.name == "ann")
        #expect(Services()[Clock.self].started == false)
        #expect(String(reflecting: (any Trellis.Service).self) == "Trellis.Service")
    }
}
