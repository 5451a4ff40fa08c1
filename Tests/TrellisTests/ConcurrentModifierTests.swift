import KarcAsync
import TestSupport
import Testing
import Trellis

struct Knock: Action {}
struct Steps: Equatable, Sendable { var taken = 0 }

/// `.concurrent()` under `.serial()`: the services under it run at once again.
@Suite(.timeLimit(.minutes(1))) struct ConcurrentModifierTests {
    @Test func concurrentInsideSerialRunsItsServicesAtOnce() async throws {
        let door = Latch()
        let order = Recorder<String>()
        let cluster = try await Bootstrap {
            Group {
                Group {
                    // The first waits for the second: run one after another, this would never end.
                    Store(model: Steps.self).mutate(on: Knock.self) { steps, _, _ in
                        await door.wait()
                        order.append("waited")
                        steps.taken += 1
                    }
                    .named("waiting")
                    Store(model: Steps.self).mutate(on: Knock.self) { steps, _, _ in
                        order.append("opened")
                        await door.open()
                        steps.taken += 1
                    }
                    .named("opening")
                }
                .concurrent()
                Store(model: Steps.self).mutate(on: Knock.self) { steps, _, _ in
                    order.append("after")  // serial: after the concurrent group is done
                    steps.taken += 1
                }
                .named("after")
            }
            .serial()
            .with(model: Steps())
        }
        try await cluster.send(action: Knock())
        #expect(order.all == ["opened", "waited", "after"])
        await cluster.shutDown()
    }
}
