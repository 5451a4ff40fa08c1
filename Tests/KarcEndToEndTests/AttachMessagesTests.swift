import Foundation
import GRPCCore
import TestSupport
import Testing

@testable import KarcAttach

/// What an attached shell is told when something is not as it should be:
/// whose change it watched, a token file that is no token, an address
/// where nothing listens.
@Suite(.timeLimit(.minutes(2))) struct AttachMessagesTests {
    /// Another shell's restore (`:undo`, `:restore`) is that shell's doing,
    /// as its commands are: a watch says `another shell: restore`, not a
    /// bare `restore` that reads as the app's.
    @Test func anotherShellsRestoreIsNamedAsThatShellsInAWatch() async throws {
        let served = try await ServedDemo()
        let watcher = try served.startAttach(["-e", ":watch counter.count", "-e", ":wait ReceivedMessage 60s"])
        #expect(await watcher.until { $0.stdout.contains("watching counter.count") || $0.outputEnded })
        let file = served.scratch.file("zero.json")
        let first = try await served.attach(["-e", ":snapshot zero", "-e", ":snapshot save zero \(file)", "-e", "counter.increment value=3"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(await watcher.until { $0.stdout.contains("counter.count: 0 → 3") || $0.outputEnded })
        let second = try await served.attach([
            "-e", ":snapshot load \(file)", "-e", ":restore zero", "-e", "account.register user-email=jill@example.com user-password=s3cret!",
        ])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(await watcher.until { $0.outputEnded })
        #expect(await watcher.stop() == 0, "\(watcher.stderr)")
        #expect(await served.stop() == 0)
        #expect(watcher.stdout.contains("watch  counter.count: 0 → 3  (by another shell: counter.increment)\n"), "\(watcher.stdout)")
        #expect(watcher.stdout.contains("watch  counter.count: 3 → 0  (by another shell: restore)\n"), "\(watcher.stdout)")
    }

    @Test func aTokenFileThatIsADirectoryOrEmptyIsSaidToBeSo() async throws {
        let served = try await ServedDemo()
        let directory = served.scratch.path
        let empty = served.scratch.file("empty.token")
        FileManager.default.createFile(atPath: empty, contents: Data())
        let fromDirectory = try await served.attach(["--token-file", directory, "-e", ":state counter"])
        let fromEmpty = try await served.attach(["--token-file", empty, "-e", ":state counter"])
        #expect(await served.stop() == 0)
        #expect(fromDirectory.status == 1)
        #expect(
            fromDirectory.stderr
                == "karc attach: error: the token file \(directory) is a directory: point --token-file to the file the app wrote (NAME.token)\n")
        #expect(fromEmpty.status == 1)
        #expect(
            fromEmpty.stderr
                == "karc attach: error: the token file \(empty) is empty: the app writes its token there as it starts serving (is it the app's file?)\n"
        )
    }

    /// A shell that never connected did not lose a connection: it is told
    /// that nothing accepts connections there, without a TLS hint.
    @Test func whereNothingListensTheShellCannotConnectRatherThanLosesTheConnection() async throws {
        let scratch = ScratchDirectory("karc-attach-nothing")
        let token = scratch.file("demo.token")
        try "0123".write(toFile: token, atomically: true, encoding: .utf8)
        // Port 1 (tcpmux) has no listener on a test machine, and connecting to it needs no privilege.
        let run = try await KarcRun.run(["attach", "127.0.0.1:1", "--token-file", token, "-e", ":state counter"])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "karc attach: error: cannot connect to 127.0.0.1:1: nothing accepts connections there (is the app serving on it, `karc serve --listen …`?)\n"
        )
    }

    /// A call made after the channel already failed to connect (what a busy
    /// machine sees) says what the first failure said, not "connection lost".
    @Test func aChannelInTransientFailureSaysWhyItCouldNotConnect() {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "connect(descriptor:addr:size:): Connection refused (errno: 111)" }
        }
        let first = RPCError(code: .unavailable, message: "Could not establish a connection to [ipv4]127.0.0.1:1.", cause: Refused())
        let later = RPCError(code: .unavailable, message: "Channel is in a transient failure state and 'wait for ready' isn't enabled.", cause: first)
        let refused = "nothing accepts connections there (is the app serving on it, `karc serve --listen …`?)"
        #expect(AttachClient.notConnected(first) == refused)
        #expect(AttachClient.notConnected(later) == refused)
        #expect(AttachClient.notConnected(RPCError(code: .unavailable, message: "Channel is shutting down.")) == nil)
    }
}
