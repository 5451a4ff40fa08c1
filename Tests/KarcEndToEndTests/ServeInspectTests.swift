import Foundation
import TestSupport
import Testing

/// `karc serve --inspect`: a page of what the app does — here a command an
/// attached shell runs — with a command box of its own; read-only when the
/// app serves `--read-only` (it looks, and runs nothing that changes a state).
@Suite(.timeLimit(.minutes(1)))
struct ServeInspectTests {
    static let runFromPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/run_from_page.py").path

    static func url(of served: ServedDemo) throws -> String {
        try #require(
            served.process.stdout.firstMatch(of: /karc serve: inspector: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32})/).map { String($0.1) },
            "\(served.process.stdout)")
    }

    @Test func thePageShowsWhatAnAttachedShellDidAndRunsItsOwnCommands() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "no chromedriver: make test installs it")
        let served = try await ServedDemo(["--inspect"])
        let url = try Self.url(of: served)
        let attached = try await served.attach([], input: "counter.increment-by-three\n")
        #expect(attached.status == 0)
        let page = try await ChildProcess.run([
            "/usr/bin/python3", Self.runFromPage, url, "counter.increment", "counter (by another shell: counter.increment-by-three)",
        ])
        #expect(String(decoding: page.stdout, as: UTF8.self) == "#1 counter.increment: ok\n", "\(String(decoding: page.stderr, as: UTF8.self))")
        #expect(await served.stop() == 0)
    }

    @Test func aReadOnlyAppsPageLooksAndRunsNothing() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "no chromedriver: make test installs it")
        let served = try await ServedDemo(["--inspect", "--read-only"])
        #expect(served.process.stdout.contains("(read-only)\n"))
        let url = try Self.url(of: served)
        let send = try await ChildProcess.run(["/usr/bin/python3", Self.runFromPage, url, "counter.increment"])
        #expect(
            String(decoding: send.stdout, as: UTF8.self).hasPrefix("this inspector is read-only (the app serves --read-only): it runs no send"),
            "\(String(decoding: send.stdout + send.stderr, as: UTF8.self))")
        let look = try await ChildProcess.run(["/usr/bin/python3", Self.runFromPage, url, ":state counter"])
        #expect(String(decoding: look.stdout, as: UTF8.self) == "#1 :state counter: ok\n")
        #expect(await served.stop() == 0)
    }

    @Test func inspectPortServesTheAppsPageThereOrSaysThePortIsTaken() async throws {
        let held = try LoopbackListener()
        let scratch = ScratchDirectory("karc-serve-port")
        let taken = try await KarcRun.run(
            ["serve", "--fresh", "--state-dir", scratch.path + "/state", "--inspect-port", "\(held.port)"],
            environment: ["XDG_RUNTIME_DIR": scratch.path + "/run"])
        #expect(taken.status == 1)
        #expect(
            taken.stderr.contains("karc serve: error: the inspector could not start: 127.0.0.1:\(held.port) is in use by another program"),
            "\(taken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/run/karc/demo.sock"), "nothing is left listening")
        held.close()
        let served = try await ServedDemo(["--inspect-port", "\(held.port)"])
        #expect(try Self.url(of: served).hasPrefix("http://127.0.0.1:\(held.port)/?token="))
        #expect(await served.stop() == 0)
    }
}

/// `karc attach --inspect`: the app serves a page of the attached shell's
/// own session, and what the page runs, the attached shell prints.
@Suite(.timeLimit(.minutes(1)))
struct AttachInspectTests {
    @Test func anAttachedShellsPageRunsInItsSessionAndTheShellPrintsIt() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "no chromedriver: make test installs it")
        let served = try await ServedDemo()
        let attach = try served.startAttach(["--inspect"], keepsInput: true)
        attach.write("counter.increment\n")
        #expect(await attach.until { $0.stdout.contains("CounterStore.State(count: 1)") || $0.outputEnded })
        // On standard error, as `karc --inspect` prints it, and numbered as no command: the page's line is #2.
        let url = try #require(
            attach.stderr.firstMatch(of: /^inspector: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32})\n/).map { String($0.1) }, "\(attach.stderr)")
        #expect(!attach.stdout.contains("inspector:"), "\(attach.stdout)")
        let page = try await ChildProcess.run(["/usr/bin/python3", ServeInspectTests.runFromPage, url, "counter.increment-by-three", "count: 1"])
        #expect(
            String(decoding: page.stdout, as: UTF8.self) == "#2 counter.increment-by-three: ok\n", "\(String(decoding: page.stderr, as: UTF8.self))")
        #expect(await attach.until { $0.stdout.contains("from the inspector: counter.increment-by-three") || $0.outputEnded })
        #expect(await attach.until { $0.stdout.contains("CounterStore.State(count: 4)") || $0.outputEnded })
        attach.closeInput()
        #expect(await attach.ending() == .exited(0))
        #expect(await served.stop() == 0)
    }
}
