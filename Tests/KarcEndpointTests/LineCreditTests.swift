import Foundation
import GRPCCore
import KarcAttachProtocol
import KarcEndpoint
import TestSupport
import Testing

/// Flow control for lines: the app holds at most its credit of a shell's
/// lines, gives credit back as its session takes them, and refuses a shell
/// that sends beyond it, saying why.
@Suite(.timeLimit(.minutes(1)))
struct LineCreditTests {
    static let script = Karc_Attach_V1_Hello.with {
        $0.protocolVersion = AttachProtocol.version
        $0.input = .script
        $0.scriptName = "flood.karc"
        $0.options = .with {
            $0.quiet = true
            $0.diff = "off"
            $0.keepGoing = true
            $0.timeoutMs = 5_000
        }
    }

    var welcome: (TestShell) -> Karc_Attach_V1_Welcome? {
        { shell in shell.messages.lazy.compactMap { if case .welcome(let welcome)? = $0.kind { welcome } else { nil } }.first }
    }

    func credits(_ shell: TestShell) -> Int {
        shell.messages.reduce(0) { sum, message in
            if case .credit(let credit)? = message.kind { sum + Int(credit.bytes) } else { sum }
        }
    }

    @Test func theWelcomeSaysTheCreditAndTheLargestMessage() async throws {
        let endpoint = try await RunningEndpoint {
            $0.lineCredit = 123_456
            $0.maxMessageBytes = 1 << 20
        }
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token, hello: Self.script)
        #expect(await shell.until { welcome($0) != nil })
        #expect(welcome(shell)?.lineCredit == 123_456)
        #expect(welcome(shell)?.maxMessageBytes == 1 << 20)
        shell.close()
        try await endpoint.stop()
    }

    @Test func eachLineTheSessionTakesGivesItsCostBack() async throws {
        let endpoint = try await RunningEndpoint { $0.lineCredit = 4_000 }
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token, hello: Self.script)
        let lines = Array(repeating: "beat.beat n=1", count: 20)
        // Within the credit: 20 lines cost 20 × (13 + 64) = 1,540 bytes.
        shell.send(.with { $0.lines = .with { $0.lines = lines } })
        shell.send(.with { $0.endOfInput = .init() })
        #expect(await shell.until { $0.end != nil })
        #expect(credits(shell) == LineCredit.cost(of: lines))
        #expect(await endpoint.cluster.target(named: "beat")?.state?() as? Beats == Beats(count: 20))
        try await endpoint.stop()
    }

    @Test func aShellThatSendsBeyondItsCreditIsRefusedSayingWhy() async throws {
        let endpoint = try await RunningEndpoint {
            $0.lineCredit = 10_000
            $0.outputBuffer = 1_024
        }
        // Its session is held by its first command, so it takes no more lines; the shell reads
        // nothing and keeps sending all the same, as a shell that ignores the protocol would.
        let flood = try TestShell(socket: endpoint.socket, token: endpoint.token, hello: Self.script, reading: false)
        #expect(await flood.until { welcome($0) != nil })
        flood.type("slow.hold")
        let line = "beat.beat n=1 # " + String(repeating: "x", count: 100)
        for _ in 0..<200 { flood.send(.with { $0.lines = .with { $0.lines = Array(repeating: line, count: 10) } }) }
        // The app lets it go, although the shell reads nothing; once it reads, it learns why.
        await endpoint.endpoint.untilAttachedShells { $0 == 0 }
        flood.resume()
        #expect(await flood.until { $0.end != nil })
        guard case .failure(let error)? = flood.end else {
            Issue.record("not refused: \(String(describing: flood.end))")
            return
        }
        #expect(error.code == .resourceExhausted)
        #expect(
            error.message
                == "the shell sent more lines than beat had room for (10000 bytes; attach protocol \(AttachProtocol.version) sends lines only as the app takes them)"
        )
        // The app goes on: the held command finishes, and another shell is served.
        await endpoint.latch.open()
        let other = try TestShell(socket: endpoint.socket, token: endpoint.token)
        other.type(":state beat")
        #expect(await other.until { $0.printed.contains("Beats(count:") })
        other.close()
        try await endpoint.stop()
    }

    @Test func creditIsAPureStateMachine() {
        var credit = LineCredit(window: 1_000)
        #expect(credit.allows(cost: 1_000, count: 5))
        credit.spend(900)
        #expect(!credit.allows(cost: 200, count: 1))
        credit.returned(900)
        // One line costlier than the whole window goes alone, once nothing is outstanding.
        #expect(credit.allows(cost: 5_000, count: 1))
        #expect(!credit.allows(cost: 5_000, count: 2))
        credit.spend(5_000)
        #expect(!credit.allows(cost: 1, count: 1))
        credit.returned(10_000)
        #expect(credit.outstanding == 0)
    }
}
