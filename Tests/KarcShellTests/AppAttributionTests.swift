import Foundation
import KarcShell
import KarcShellTrellis
import Testing
import Trellis

@testable import KarcSession

/// A shell on a live app says who made each change between its commands,
/// though it traces in full only its own commands: the app's own sends are
/// named by their root, and everything they caused with them.
@Suite(.timeLimit(.minutes(1)))
struct AppAttributionTests {
    var plain: ShellOptions {
        var options = ShellOptions()
        options.printing.color = false
        options.keepGoing = true
        return options
    }

    @Test func aChangeTheAppMadeNamesTheAppsSendAndWhatItCausedToo() async throws {
        let shop = try await TraceTests.shop()
        let run = try await Transcript.capture { sink in
            let session = ShellSession(cluster: shop, options: plain, sink: sink, words: PromptWords())
            _ = await ScriptRunner(session: session).run(lines: ["orders.place item=pen quantity=1"], name: "<test>")
            // The app's own send, not a command: the order, and the reservation its handler sent.
            try? await shop.cluster.send(action: TraceTests.Place(item: "ink", quantity: 1))
            _ = await ScriptRunner(session: session).run(lines: ["spinner.spin remaining=0"], name: "<test>")
            return 0
        }
        #expect(run.output.contains("state  orders (by the app: orders.place):"), "\(run.output)")
        #expect(run.output.contains("state  inventory (by the app: orders.place):"), "\(run.output)")
        await shop.shutDown()
    }

    @Test func theAppsWorkCarriesItsRootAndNoTreeWhileOnlyAShellObserves() async throws {
        let shop = try await TraceTests.shop()
        try await shop.cluster.send(action: TraceTests.Place(item: "pen", quantity: 1))
        #expect(await shop.cluster.settled())
        let records = shop.takeRecords()
        #expect(!records.isEmpty)
        let links = records.compactMap(\.link)
        #expect(links.count == records.count, "every record of the app's send says its root")
        #expect(Set(links.map(\.trace)).count == 1, "one trace: the order's")
        #expect(links.allSatisfy { $0.isRootOnly && $0.span == $0.trace && $0.parent == nil })
        #expect(records.allSatisfy { $0.time == nil }, "no clock read for a tree nobody draws")
        #expect(!records.contains { if case .handled = $0.kind { true } else { false } }, "no end record: nobody times it")
        await shop.shutDown()
    }
}
