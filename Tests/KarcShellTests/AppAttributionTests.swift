import Foundation
import KarcAsync
import KarcShell
import KarcShellTrellis
import Testing
import Trellis

@testable import KarcSession
@testable import KarcTrace

/// A shell on a live app says who made each change between its commands,
/// though it traces in full only its own commands: the app's own sends are
/// named by their root, and everything they caused with them.
@Suite(.timeLimit(.minutes(1)))
struct AppAttributionTests {
    var plain: ShellOptions { .plain(keepGoing: true) }

    @Test func aChangeTheAppMadeNamesTheAppsSendAndWhatItCausedToo() async throws {
        let shop = try await TraceTests.shop()
        let run = try await Transcript.capture { sink in
            let session = ShellSession(cluster: shop, options: plain, sink: sink, words: PromptWords())
            _ = await ScriptRunner(session: session).run(lines: ["orders.place item=pen quantity=1"], name: "<test>")
            // The app's own send, not a command: the order, and the reservation its handler sent.
            _ = try? await shop.cluster.send(action: TraceTests.Place(item: "ink", quantity: 1))
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

/// What the session keeps of the app's own traces: what their roots sent, for the last few.
@Suite(.timeLimit(.minutes(1)))
struct TraceBookRootTests {
    struct Bump: Sendable { var n: Int }

    static func sent(_ n: Int, trace: UInt64) -> ShellRecord {
        ShellRecord(.sent(action: Bump(n: n), target: "counter"), link: TraceLink.rootOnly(span: trace, origin: .none), time: nil)
    }

    @Test func aRootIsNamedByItsOwnSendNotByTheSendsItsHandlerMade() {
        var book = TraceBook(rootsKept: 4)
        book.add(Self.sent(1, trace: 7))
        book.add(Self.sent(2, trace: 8))
        book.add(Self.sent(3, trace: 7))  // a send its handler made: same trace
        #expect((book.root(of: 7)?.action as? Bump)?.n == 1)
        #expect((book.root(of: 8)?.action as? Bump)?.n == 2)
        #expect(book.recording(7) == nil, "no tree is kept of the app's own work")
    }

    @Test func onlyTheLastRootsAreKept() {
        var book = TraceBook(rootsKept: 3)
        for trace in UInt64(1)...5 { book.add(Self.sent(Int(trace), trace: trace)) }
        #expect(book.root(of: 1) == nil && book.root(of: 2) == nil)
        #expect([3, 4, 5].map { (book.root(of: UInt64($0))?.action as? Bump)?.n } == [3, 4, 5])
    }
}
