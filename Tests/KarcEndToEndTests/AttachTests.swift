import Foundation
import TestSupport
import Testing

/// `karc attach` in front of `karc serve`: the same shell, another process.
@Suite(.timeLimit(.minutes(2))) struct AttachTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    static let demoScripts = ["account-messaging", "auth", "counter", "errors", "identity-articles", "readme", "tour"]

    @Test(arguments: demoScripts)
    func aDemoScriptPrintsTheSameThroughAttachAsLocally(_ name: String) async throws {
        let script = repository.appendingPathComponent("scripts/demo/\(name).karc").path
        let local = try await KarcRun.run(["--json", "--fresh", "--tick", "200ms", script])
        let served = try await ServedDemo()
        let remote = try await served.attach(["--json", script])
        #expect(await served.stop() == 0)
        #expect(remote.status == local.status)
        // Span ids count in each process (the app's own work takes some): the same trees, told apart by order.
        #expect(TraceIDs.comparable(remote.stdout) == TraceIDs.comparable(local.stdout))
        #expect(remote.stderr == local.stderr)
        #expect(!local.stdout.isEmpty)
    }

    @Test func traceWorksThroughAttachAsLocally() async throws {
        let served = try await ServedDemo()
        let remote = try await served.attach(["--trace", "-e", "identity.login email=jill@example.com password=s3cret!", "-e", ":seq"])
        #expect(await served.stop() == 0)
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(remote.stdout.contains("trace  #1 identity.login:\n  identity.login  ok  "), "\(remote.stdout)")
        #expect(remote.stdout.contains("\n    articles.load  ok  "))
        #expect(remote.stdout.contains("seq    #1 identity.login:\n    shell              identity             articles              account\n"))
    }

    @Test func watchBlameAndResetWorkThroughAttach() async throws {
        let served = try await ServedDemo()
        let remote = try await served.attach([
            "-e", ":watch counter.count", "-e", "counter.increment value=2", "-e", ":blame counter", "-e", ":reset", "-e", ":history 2",
        ])
        #expect(await served.stop() == 0)
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(remote.stdout.contains("watch  counter.count: 0 → 2  (by #2 counter.increment)\n"), "\(remote.stdout)")
        #expect(remote.stdout.contains("  #2  "))
        #expect(remote.stdout.contains("  counter.increment value=2   counter.count: 0 → 2\n"))
        #expect(remote.stdout.contains("watch  counter.count: 2 → 0  (by #4 :reset)\n"))
        #expect(remote.stdout.contains("    2  ok     counter.increment value=2\nstate  counter:\n"))
    }

    @Test func twoAttachedShellsEachSeeTheirOwnWatchesOfTheOthersChanges() async throws {
        let served = try await ServedDemo()
        // A watches, and waits for the welcome message B's registration brings a tick later.
        let watcher = try served.startAttach(["-e", ":watch counter.count", "-e", ":wait ReceivedMessage 30s"])
        #expect(await watcher.until { $0.stdout.contains("watching counter.count") || $0.outputEnded })
        let changer = try await served.attach([
            "-e", ":watch counter.count", "-e", "counter.increment value=3", "-e",
            "account.register user-email=jill@example.com user-password=s3cret!",
        ])
        #expect(changer.status == 0, "\(changer.stderr)")
        #expect(await watcher.until { $0.outputEnded })
        #expect(await watcher.stop() == 0, "\(watcher.stderr)")
        #expect(await served.stop() == 0)
        #expect(changer.stdout.contains("watch  counter.count: 0 → 3  (by #2 counter.increment)\n"), "\(changer.stdout)")
        #expect(watcher.stdout.contains("watch  counter.count: 0 → 3  (by another shell: counter.increment)\n"), "\(watcher.stdout)")
    }

    @Test func snapshotsUndoAndSnapshotFilesWorkThroughAttach() async throws {
        let served = try await ServedDemo()
        let file = served.scratch.file("counter.json")
        let first = try await served.attach([
            "-e", ":snapshot zero", "-e", "counter.increment value=2", "-e", "counter.increment value=3", "-e", ":undo", "-e",
            ":snapshot save zero \(file)",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("undone  #3 counter.increment value=3: counter\n"), "\(first.stdout)")
        // The attached shell's side writes the file, readable by its user alone.
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
        let second = try await served.attach(["-e", ":snapshot load \(file)", "-e", ":restore zero", "-e", ":state counter"])
        #expect(await served.stop() == 0)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("state  counter:\n  - CounterStore.State(count: 2)\n  + CounterStore.State(count: 0)\nrestored  'zero': "))
        #expect(second.stdout.hasSuffix("state  counter: CounterStore.State(count: 0)\n"))
    }

    @Test func theEndpointIsReachableOnlyByItsUserAndItsToken() async throws {
        let served = try await ServedDemo()
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try mode(served.runtimeDirectory + "/karc") == 0o700)
        #expect(try mode(served.socket) == 0o600)
        #expect(try mode(served.tokenFile) == 0o600)
        let token = try String(contentsOfFile: served.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit), "256 random bits, hex")
        #expect(served.process.stdout.contains("listens on unix:\(served.socket) with the token in \(served.tokenFile)"))

        let wrong = served.scratch.file("wrong.token")
        try String(repeating: "0", count: 64).write(toFile: wrong, atomically: true, encoding: .utf8)
        let refused = try await served.attach(["--token-file", wrong, "-e", "counter.increment"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "karc attach: error: the app refused this shell: wrong token (the app's token is in \(served.tokenFile)); this shell read --token-file \(wrong)\n"
        )
        #expect(refused.stdout.isEmpty)
        #expect(await served.stop() == 0)
        // The app logs the attempt, never the token it was given.
        #expect(served.process.stderr.contains("refused an attach without the right token"))
        #expect(!served.process.stderr.contains(String(repeating: "0", count: 64)))
        #expect(!served.process.stderr.contains(token))
    }

    @Test func aMissingTokenFileIsNamed() async throws {
        let served = try await ServedDemo()
        let run = try await served.attach(["--token-file", served.scratch.file("none.token"), "-e", "counter.increment"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot read the token file \(served.scratch.path)/none.token: no such file; point to it with --token-file"))
        _ = await served.stop()
    }

    @Test func withoutAnAddressTheOneEndpointIsFoundAndNoneOrSeveralAreClearErrors() async throws {
        let empty = ScratchDirectory("karc-attach-none")
        let none = try await KarcRun.run(["attach", "-e", ":state"], environment: ["XDG_RUNTIME_DIR": empty.path])
        #expect(none.status == 1)
        #expect(
            none.stderr
                == "karc attach: error: no endpoint listens under \(empty.path)/karc: start one (karc serve, or a ClusterEndpoint in your app), or name its address\n"
        )

        let served = try await ServedDemo()
        let found = try await served.attach(["-e", "counter.increment"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("+ CounterStore.State(count: 1)"))
        // A second endpoint beside it: which one is meant must be said.
        let other = try UnixListener(path: served.runtimeDirectory + "/karc/shop.sock")
        let several = try await served.attach(["-e", "counter.increment"])
        #expect(several.status == 1)
        #expect(
            several.stderr
                == "karc attach: error: 2 endpoints listen under \(served.runtimeDirectory)/karc: name one (karc attach NAME): demo, shop\n")
        let named = try await served.attach(["demo", "-e", ":state counter"])
        #expect(named.stdout == "state  counter: CounterStore.State(count: 1)\n")
        other.close()
        _ = await served.stop()
    }

    @Test func aLoneFileArgumentIsTheScriptForTheDefaultEndpoint() async throws {
        let served = try await ServedDemo()
        let script = served.scratch.file("two.karc")
        try "counter.increment\ncounter.increment\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await served.attach(["--quiet", script])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("+ CounterStore.State(count: 2)\n"))
        _ = await served.stop()
    }

    @Test func readOnlyRefusesSendsAndShowsState() async throws {
        let served = try await ServedDemo(["--read-only"])
        #expect(served.process.stdout.contains("(read-only)"))
        let send = try await served.attach(["-e", "counter.increment"])
        #expect(send.status == 1)
        #expect(
            send.stderr
                == "-e:1:9: error: counter.increment failed: refused: this endpoint is read-only (sends are off; :state, :wait and what the app does still show)\n"
        )
        let state = try await served.attach(["-e", ":state counter"])
        #expect(state.status == 0)
        #expect(state.stdout == "state  counter: CounterStore.State(count: 0)\n")
        let reset = try await served.attach(["-e", ":reset"])
        #expect(reset.status == 1)
        #expect(
            reset.stderr
                == "-e:1:2: error: cannot reset: refused: this endpoint is read-only (sends are off; :state, :wait and what the app does still show)\n"
        )
        let restore = try await served.attach(["-e", ":snapshot now", "-e", ":restore now"])
        #expect(restore.status == 1)
        #expect(
            restore.stderr
                == "-e:2:10: error: cannot restore: refused: this endpoint is read-only (sends are off; :state, :wait and what the app does still show)\n"
        )
        _ = await served.stop()
    }

    @Test func aScriptExitsAtOnceWhenTheAppStops() async throws {
        let served = try await ServedDemo()
        let waiting = Task { try await served.attach(["-e", ":wait ReceivedMessage 60s"]) }
        let process = served.process
        #expect(await process.until { $0.stderr.contains("a shell attached") })
        #expect(await served.stop() == 0)
        let run = try await waiting.value
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("karc attach: error: connection lost"), "\(run.stderr)")
        #expect(served.process.stdout.hasSuffix("karc serve: stopped\n"))
    }

    @Test func localFilesStayOnTheShellsMachine() async throws {
        let served = try await ServedDemo()
        let sourced = served.scratch.file("inc.karc")
        try "counter.increment\n".write(toFile: sourced, atomically: true, encoding: .utf8)
        let saved = served.scratch.file("saved.karc")
        let recorded = served.scratch.file("recorded.karc")
        let run = try await served.attach([
            "--record", recorded, "--with-failures", "-e", ":source \(sourced)", "-e", ":save \(saved)", "-e",
            ":source \(served.scratch.file("missing.karc"))",
        ])
        #expect(run.status == 1)
        #expect(run.stdout.contains("> counter.increment") == false)  // not at a prompt: no echo
        #expect(run.stdout.contains("saved 1 command to \(saved)"))
        #expect(run.stderr.contains("error: no such script: \(served.scratch.path)/missing.karc"))
        #expect(try String(contentsOfFile: saved, encoding: .utf8).hasSuffix("\n:source \(sourced)\n"))
        let record = try String(contentsOfFile: recorded, encoding: .utf8)
        #expect(record.hasPrefix("# karc session recorded "))
        #expect(
            record.hasSuffix(":source \(sourced)\n:source \(served.scratch.path)/missing.karc\n"),
            "(:save is not replayed; the failed :source is kept, --with-failures)")
        #expect(try FileManager.default.attributesOfItem(atPath: recorded)[.posixPermissions] as? Int == 0o600)
        _ = await served.stop()
    }

    @Test func tcpOnLoopbackWithTheTokenFile() async throws {
        let served = try await ServedDemo(["--listen", "127.0.0.1:0"])
        let line = try #require(served.process.stdout.split(separator: "\n").first { $0.contains("listens on 127.0.0.1:") })
        let address = String(try #require(line.components(separatedBy: "listens on ").last?.split(separator: " ").first))
        #expect(address.hasPrefix("127.0.0.1:") && address != "127.0.0.1:0")
        let tokenFile = served.runtimeDirectory + "/karc/demo.token"
        #expect(served.process.stdout.contains("karc attach \(address) --token-file \(tokenFile)"))
        let run = try await served.attach([address, "--token-file", tokenFile, "-e", "counter.increment"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("+ CounterStore.State(count: 1)"))
        let withoutToken = try await served.attach([address, "-e", "counter.increment"])
        #expect(
            withoutToken.stderr
                == "karc attach: error: attaching over TCP needs the endpoint's token: --token-file FILE (the app wrote it; karc serve prints where)\n"
        )
        _ = await served.stop()
    }

    @Test func serveRefusesAnyInterfaceButLoopbackWithoutTLS() async throws {
        let scratch = ScratchDirectory("karc-serve-refused")
        let run = try await KarcRun.run(
            ["serve", "--listen", "0.0.0.0:7399", "--fresh", "--state-dir", scratch.path], environment: ["XDG_RUNTIME_DIR": scratch.path])
        #expect(run.status == 1)
        #expect(
            run.stderr.hasSuffix(
                "karc serve: error: refusing to listen on 0.0.0.0:7399 without TLS: anyone who reaches that interface could try the cluster. Listen on 127.0.0.1, or configure TLS (karc serve --tls-cert FILE --tls-key FILE)\n"
            ), "\(run.stderr)")
        let half = try await KarcRun.run(["serve", "--tls-cert", "x.pem"], environment: ["XDG_RUNTIME_DIR": scratch.path])
        #expect(half.status != 0)
        #expect(half.stderr.contains("TLS needs both --tls-cert and --tls-key"))
    }

    @Test func aLineTooLongToSendEndsTheScriptThereWithAnError() async throws {
        let served = try await ServedDemo()
        let script = served.scratch.file("long.karc")
        let long = "articles.add title=\"" + String(repeating: "x", count: 9 << 20) + "\""
        try ("counter.increment\n" + long + "\ncounter.increment\n").write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await served.attach(["--quiet", script])
        #expect(run.status == 1)
        #expect(run.stderr.contains("karc attach: error: \(script):2: the line is \(long.utf8.count) bytes; a line sent to the app may be at most"))
        #expect(run.stdout.contains("+ CounterStore.State(count: 1)"))
        #expect(!run.stdout.contains("count: 2"))
        _ = await served.stop()
    }

    @Test func sigintEndsTheScriptsRunningCommandInTheApp() async throws {
        let served = try await ServedDemo()
        let attach = try served.startAttach(["-e", ":wait ReceivedMessage 60s", "-e", "counter.increment"])
        let process = served.process
        #expect(await process.until { $0.stderr.contains("a shell attached") })
        let status = await attach.stop(signal: SIGINT)
        #expect(status == 130)
        // Interrupted while it waits (or, on a slow machine, just before it started to).
        #expect(attach.stderr.hasPrefix("-e:1:") && attach.stderr.contains("error: interrupted"), "\(attach.stderr)")
        #expect(!attach.stdout.contains("count: 1"), "the script stopped there")
        _ = await served.stop()
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs openssl to make a certificate"))
    func tlsOnAnyInterfaceWithTheCertificateTrusted() async throws {
        let certificates = ScratchDirectory("karc-tls")
        let (cert, key) = (certificates.file("cert.pem"), certificates.file("key.pem"))
        let made = try await ChildProcess.run([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ])
        #expect(made.status == 0)
        let served = try await ServedDemo(["--listen", "0.0.0.0:0", "--tls-cert", cert, "--tls-key", key])
        let line = try #require(served.process.stdout.split(separator: "\n").first { $0.contains("listens on 0.0.0.0:") })
        let port = try #require(line.components(separatedBy: "listens on 0.0.0.0:").last?.prefix { $0.isNumber })
        #expect(served.process.stdout.contains("--tls-ca \(cert)"))
        let tokenFile = served.runtimeDirectory + "/karc/demo.token"
        let run = try await served.attach(["127.0.0.1:\(port)", "--token-file", tokenFile, "--tls-ca", cert, "-e", "counter.increment"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("+ CounterStore.State(count: 1)"))
        let plaintext = try await served.attach(["127.0.0.1:\(port)", "--token-file", tokenFile, "-e", "counter.increment"])
        #expect(plaintext.status == 1)
        #expect(plaintext.stderr.hasSuffix("(if the endpoint uses TLS, pass --tls-ca FILE)\n"), "\(plaintext.stderr)")
        _ = await served.stop()
    }
}
