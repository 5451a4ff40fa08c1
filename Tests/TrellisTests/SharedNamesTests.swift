import AsyncDispatcher
import Karc
import Testing
import Trellis

/// Names two modules export (docs/porting.md, "Names two modules share"):
/// a file that imports Trellis, AsyncDispatcher and Karc together writes
/// each with its module's name, as here. Names only one of them exports
/// (`Cluster`, `Dispatcher`, `Bootstrap`) need none.
@Suite("Shared names: Trellis, AsyncDispatcher and Karc in one file", .timeLimit(.minutes(1)))
struct SharedNamesTests {
    /// Both modules have an `Action` and a `Middleware`: each is written with its module.
    struct Bump: Trellis.Action, Equatable {}

    struct Logging: Trellis.Middleware {
        typealias Handled = Bump
    }

    actor Tally: Dispatcher {
        let pipeline = AsyncDispatcher.Pipeline()
        var middlewares: [any AsyncDispatcher.Middleware] = []
        var count = 0
    }

    struct Add: AsyncDispatcher.Action {
        func execute(with store: isolated Tally) async {
            store.count += 1
        }
    }

    @Test func eachIsWrittenWithItsModule() async throws {
        #expect((Bump.self as Any.Type) is any Trellis.Action.Type)
        #expect(!((Bump.self as Any.Type) is any AsyncDispatcher.Action.Type))
        #expect((Logging.self as Any.Type) is any Trellis.Middleware.Type)
        let tally = Tally()
        try await tally.dispatch(Add())
        #expect(await tally.count == 1)
        // `Pipeline` is Karc's and AsyncDispatcher's, and neither imports the other: write the module's name.
        #expect(String(reflecting: Karc.Pipeline.self) == "Karc.Pipeline")
        #expect(String(reflecting: AsyncDispatcher.Pipeline.self) == "AsyncDispatcher.Pipeline")
    }
}
