import Foundation
import TestSupport
import Testing

/// An attached shell's session runs inside the app: no line it sends may
/// trap there. Even a read-only token holder sends every hostile line, and
/// the app is still alive (and answering) after each batch.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct AttachFuzzTests {
    let targets = ["counter", "identity", "articles", "account", "auth"]
    let commands = ["counter.increment", "articles.add", "articles.like", "identity.login", "account.register", "auth.log-in.open"]

    @Test func theSevenCharactersThatCrashedTheAppAreAnErrorThere() async throws {
        let served = try await ServedDemo(["--read-only"])
        for line in [":help .", ":help ...", ":help .x"] {
            let run = try await served.attach(["-e", line])
            #expect(run.status == 1)
            #expect(run.stderr.contains("expected a target before '.'"), "\(run.stderr)")
        }
        #expect(kill(served.process.pid, 0) == 0, "the app is gone")
        #expect(try await served.attach(["-e", ":state counter"]).status == 0)
        #expect(await served.stop() == 0)
    }

    @Test(arguments: [11, 12] as [UInt64])
    func hostileScriptsThroughAttachLeaveTheAppAlive(_ seed: UInt64) async throws {
        let served = try await ServedDemo(["--read-only"])
        let lines = Array(HostileLines(seed: seed, count: 1_500, targets: targets, commands: commands))
        let run = try await served.attach(["--keep-going", "--timeout", "50ms", "-"], input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 1)
        #expect(!run.stderr.contains("connection lost"), "\(run.stderr.suffix(500))")
        #expect(kill(served.process.pid, 0) == 0, "the app is gone: \(served.process.stderr.suffix(1_000))")
        #expect(try await served.attach(["-e", ":state counter"]).stdout.contains("CounterStore.State"))
        #expect(await served.stop() == 0)
    }
}
