import Karc
import KarcShell
import KarcShellTrellis
import Testing
import Trellis

/// A user's Karc model whose pipe throws after its command was sent (a
/// simplex pipe: the send answered at once): the shell says which pipe
/// failed, with what, under the command that caused it, whether or not
/// the model's logger is on, in place of nothing.
@Suite(.timeLimit(.minutes(1)))
struct PipeFailureTests {
    struct Outbox: Equatable, Initable, Sendable, Codable { var sent: [String] = [] }
    protocol MailCommand: Sendable {}
    struct Post: MailCommand, Codable { var to: String }
    enum MailEffect: Sendable { case sent(String) }
    struct Bounced: Error, CustomStringConvertible {
        var address: String
        var description: String { "no mailbox at \(address)" }
    }

    @CheckedSendable
    final class MailDomain: Domain<DefaultId, Outbox, MailCommand, Never> {}

    @CheckedSendable
    final class Mailer: Model<MailDomain, DefaultId, Outbox, MailCommand, MailEffect, Never> {
        override func reducer(state: Outbox, effect: MailEffect) -> (Outbox, [Never]) {
            guard case .sent(let address) = effect else { return (state, []) }
            return (Outbox(sent: state.sent + [address]), [])
        }

        @ScopesBuilder
        override func scopes(_ s: Outbox, _ i: Interactor) -> [Scope] {
            i.main
        }
    }

    static func mail() async throws -> ClusterShell {
        let cluster = try await Bootstrap { Mailer.service(.init(environ: Environ()), commands: [Post.self]).named("mail") }
        return ClusterShell(name: "mail", cluster: cluster)
    }

    @Test func aPipeThatThrowsIsPrintedUnderTheCommandThatCausedIt() async throws {
        let mail = try await Self.mail()
        let run = try await Transcript.run(mail, ["mail.post to=jo@example.com", "mail.post to=nobody"], options: .plain(quiet: true))
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.components(separatedBy: "\n").filter { !$0.isEmpty } == [
                "state  mail:",
                "  - PipeFailureTests.Outbox(sent: [])",
                "  + PipeFailureTests.Outbox(",
                "  +   sent: [",
                "  +     [0]: \"jo@example.com\"",
                "  +   ]",
                "  + )",
                "failed: mail's pipe main.post threw no mailbox at nobody; it goes on",
                "ok (no changes)",
            ], "\(run.errors)")
    }

    /// A simplex command answers before its pipe's track runs; the shell waits
    /// for the cluster to settle, and the pipe waits for its next command
    /// before the cluster counts it settled: the next line never finds it busy.
    @Test func aScriptOfOneSimplexCommandAfterAnotherNeverFindsThePipeBusy() async throws {
        let mail = try await Self.mail()
        let lines = (1...200).map { "mail.post to=n\($0)@example.com" }
        let run = try await Transcript.run(mail, lines, options: .plain(quiet: true))
        #expect(run.status == 0, "\(run.errors)")
        #expect(!run.output.contains("busy") && !run.errors.contains("busy"), "\(run.errors)")
        #expect(run.output.components(separatedBy: "\n").contains { $0.contains("[199]: \"n200@example.com\"") })
    }
}

extension PipeFailureTests.Mailer.Interactor {
    func main() -> Pipeline {
        Pipeline {
            Pipe(id: "post", mode: .simplex(), source: commandSource) { (post: PipeFailureTests.Post, _) in
                guard post.to.contains("@") else { throw PipeFailureTests.Bounced(address: post.to) }
                try await sendEffects(.sent(post.to))
            }
        }
    }
}
