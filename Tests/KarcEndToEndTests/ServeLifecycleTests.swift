import Foundation
import TestSupport
import Testing

/// `karc serve` and `karc attach` at the edges of their lives: a terminal
/// that closes, an app that was killed, a second endpoint beside the first,
/// and a reader that goes away.
@Suite(.timeLimit(.minutes(2))) struct ServeLifecycleTests {
    @Test func sighupStopsServeCleanlyAndRemovesItsSocketAndToken() async throws {
        let served = try await ServedDemo()
        #expect(FileManager.default.fileExists(atPath: served.socket))
        #expect(await served.process.stop(signal: SIGHUP) == 0, "\(served.process.stderr)")
        #expect(served.process.stdout.contains("karc serve: stopped"), "\(served.process.stdout)")
        #expect(!FileManager.default.fileExists(atPath: served.socket))
        #expect(!FileManager.default.fileExists(atPath: served.tokenFile))
    }

    @Test func aSocketLeftByAKilledAppIsNoEndpointForAttach() async throws {
        let served = try await ServedDemo()
        _ = await served.process.stop(signal: SIGKILL)
        #expect(FileManager.default.fileExists(atPath: served.socket), "SIGKILL leaves the socket")
        let found = try await served.attach(["-e", ":state counter"])
        #expect(found.status == 1, "\(found.stdout)")
        #expect(found.stderr.contains("no endpoint listens under \(served.runtimeDirectory)/karc"), "\(found.stderr)")
        let named = try await served.attach(["demo", "-e", ":state counter"])
        #expect(named.stderr.contains("nothing listens at unix:\(served.socket): the app that made it stopped"), "\(named.stderr)")
        // The next endpoint of that name replaces it, and is found.
        let again = try await ServedDemo(in: served.scratch)
        let attached = try await again.attach(["-e", ":state counter"])
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(await again.stop() == 0)
    }

    @Test func besideAnotherEndpointServeSaysToAttachByName() async throws {
        let other = try await ServedDemo(name: "other")
        let demo = try await ServedDemo(in: other.scratch)
        #expect(demo.process.stdout.contains("attach with: karc attach demo "), "\(demo.process.stdout)")
        #expect(other.process.stdout.contains("attach with: karc attach other "), "\(other.process.stdout)")
        #expect(await demo.stop() == 0)
        #expect(await other.stop() == 0)
    }

    @Test func anAttachedScriptWhoseReaderWentEndsBySIGPIPEAsALocalOneDoes() async throws {
        let served = try await ServedDemo()
        let script = served.scratch.file("many.karc")
        try String(repeating: "counter.increment\n", count: 3000).write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await KarcRun.run(
            ["-c", #"set -o pipefail; "$0" attach "$1" | head -n 1 >/dev/null; echo "status ${PIPESTATUS[0]}""#, KarcRun.binaryPath, script],
            environment: ["XDG_RUNTIME_DIR": served.runtimeDirectory], binary: "/bin/bash")
        #expect(run.stdout == "status 141\n", "\(run.stdout)\(run.stderr)")
        // The app goes on for the shells that remain.
        let next = try await served.attach(["-e", ":state counter"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(await served.stop() == 0)
    }
}
