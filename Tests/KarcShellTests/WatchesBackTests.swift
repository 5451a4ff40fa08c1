import Foundation
import Testing

@testable import KarcSession
@testable import KarcShell

/// The watches a reconnected shell asks its new session for: those the
/// cluster still has come back; one it cannot take (its target gone, or a
/// field its state's type no longer has) is named, and the session goes on.
@Suite(.timeLimit(.minutes(1)))
struct WatchesBackTests {
    @Test func theWatchesTheClusterStillHasComeBackAndTheOthersAreNamed() async throws {
        var options = ShellOptions()
        options.printing.color = false
        options.printing.quiet = true
        options.watches = ["shelf.books", "shelf.bogus", "nosuch.thing"]
        let library = try await ResetTests.library()
        // As a session in an app starts for an attached shell: the watches before its first command.
        let run = try await Transcript.capture { sink in
            await Shell.runSession(
                library, options: options, commands: [":watch", "shelf.add title=Dune"], input: .none, sink: sink, host: LocalHost())
        }
        #expect(run.status == 0, "\(run.errors)")
        let errors = run.errors.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 2, "\(run.errors)")
        #expect(errors.first?.contains("error: your watch shelf.bogus could not be set again: no field 'bogus'") == true, "\(run.errors)")
        #expect(errors.last?.contains("error: your watch nosuch.thing could not be set again: no target 'nosuch'") == true, "\(run.errors)")
        #expect(run.output.contains("watching  shelf.books\n"), "only the watch the cluster still has: \(run.output)")
        #expect(run.output.contains("watch  shelf.books"), "\(run.output)")
    }
}
