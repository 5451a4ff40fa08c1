import Foundation
import TestSupport
import Testing

/// `karc serve --name`: a second app beside the first, under its own socket and token.
@Suite(.timeLimit(.minutes(1)))
struct ServeNameTests {
    @Test func aSecondAppOfTheSameNameIsToldToTakeAnotherAndRunsUnderIt() async throws {
        let first = try await ServedDemo()
        // The same name in the same place: refused, with the way out.
        let same = try await KarcRun.run(
            ["serve", "--fresh", "--state-dir", first.scratch.file("second-state")], environment: ["XDG_RUNTIME_DIR": first.runtimeDirectory])
        #expect(same.status == 1)
        #expect(same.stderr.contains("an endpoint listens on unix:\(first.socket) already (another app named demo?)"), "\(same.stderr)")
        #expect(same.stderr.contains("karc serve --name NAME"), "\(same.stderr)")

        let shop = try await ServedDemo(name: "shop", in: first.scratch)
        #expect(shop.socket == first.runtimeDirectory + "/karc/shop.sock")
        #expect(shop.process.stdout.contains("the demo cluster, named shop, listens on unix:\(shop.socket) with the token in \(shop.tokenFile)"))
        #expect(shop.process.stdout.contains("attach with: karc attach shop "), "\(shop.process.stdout)")
        // Each is reached by its name, with its own state.
        let inShop = try await shop.attach(["shop", "-e", "counter.increment"])
        #expect(inShop.status == 0, "\(inShop.stderr)")
        let inDemo = try await first.attach(["demo", "-e", ":state counter"])
        #expect(inDemo.stdout == "state  counter: CounterStore.State(count: 0)\n", "\(inDemo.stderr)")
        #expect(await shop.stop() == 0)
        #expect(await first.stop() == 0)
    }

    @Test func aNameThatCannotNameASocketIsRefused() async throws {
        let scratch = ScratchDirectory("karc-serve-name")
        let run = try await KarcRun.run(
            ["serve", "--name", "../up", "--fresh", "--state-dir", scratch.path], environment: ["XDG_RUNTIME_DIR": scratch.path])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--name '../up' cannot name a socket: use letters, digits, '-' or '_' (demo, shop-2)"), "\(run.stderr)")
    }
}
