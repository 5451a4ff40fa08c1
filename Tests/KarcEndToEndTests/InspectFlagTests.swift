import Foundation
import Testing

/// `karc --inspect` serves the session to a browser and says where; what the
/// shell prints is what it prints without it.
@Suite(.timeLimit(.minutes(1)))
struct InspectFlagTests {
    @Test func theURLGoesToStandardErrorAndTheOutputIsAsWithout() async throws {
        let inspected = try await KarcRun.run(["--inspect", "--fresh", "-e", "counter.increment", "-e", "counter.increment"])
        let plain = try await KarcRun.run(["--fresh", "-e", "counter.increment", "-e", "counter.increment"])
        #expect(inspected.status == 0)
        #expect(inspected.stdout == plain.stdout)
        let line = try #require(inspected.stderr.split(separator: "\n").first)
        #expect(line.wholeMatch(of: /inspector: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}/) != nil, "\(inspected.stderr)")
    }

    @Test func inspectPortServesOnThePortAForwardWaitsOn() async throws {
        let held = try LoopbackListener()
        let port = held.port
        let taken = try await KarcRun.run(["--inspect-port", "\(port)", "--fresh", "-e", "counter.increment"])
        #expect(taken.status == 1)
        #expect(
            taken.stderr.contains(
                "error: the inspector could not start: 127.0.0.1:\(port) is in use by another program: give another --inspect-port,"
                    + " or leave it out for any free port"), "\(taken.stderr)")
        #expect(taken.stdout.isEmpty, "no command ran")
        held.close()
        let served = try await KarcRun.run(["--inspect-port", "\(port)", "--fresh", "-e", "counter.increment"])
        #expect(served.status == 0, "\(served.stderr)")
        #expect(served.stderr.hasPrefix("inspector: http://127.0.0.1:\(port)/?token="), "\(served.stderr)")
        for wrong in ["0", "70000", "http"] {
            let refused = try await KarcRun.run(["--inspect-port", wrong, "-e", "counter.increment"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("--inspect-port"), "\(wrong): \(refused.stderr)")
        }
        let serve = try await KarcRun.run(["serve", "--inspect-port", "70000"])
        #expect(serve.status != 0)
        #expect(serve.stderr.contains("--inspect-port 70000 is not a port: give one from 1 to 65535"), "\(serve.stderr)")
    }

    /// `KARC_INSPECT_RATE` that is not a rate ends a script before it runs, saying what was given and what is accepted.
    @Test func aRateThatIsNotOneIsRefusedBeforeAnyCommandRuns() async throws {
        for wrong in ["fast", "0", "2000000"] {
            let refused = try await KarcRun.run(
                ["--inspect", "--fresh", "-e", "counter.increment"], environment: ["KARC_INSPECT_RATE": wrong])
            #expect(refused.status == 1)
            #expect(
                refused.stderr.contains(
                    "error: the inspector could not start: KARC_INSPECT_RATE=\(wrong.debugDescription) is not a rate:"
                        + " give how many messages a second the page is sent while the session runs faster than it can show,"
                        + " a whole number from 1 to 1000000 (unset, it is 1000)"), "\(wrong): \(refused.stderr)")
            #expect(refused.stdout.isEmpty, "no command ran")
        }
        // An app serving its inspector refuses to start rather than serve a page at a rate it was not given.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karc-rate-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let serve = try await KarcRun.run(
            ["serve", "--inspect", "--fresh", "--state-dir", directory, "--listen", "unix:\(directory)/app.sock"],
            environment: ["KARC_INSPECT_RATE": "fast"])
        #expect(serve.status == 1)
        #expect(serve.stderr.contains(#"the inspector could not start: KARC_INSPECT_RATE="fast" is not a rate"#), "\(serve.stderr)")
        let slow = try await KarcRun.run(["--inspect", "--fresh", "-e", "counter.increment"], environment: ["KARC_INSPECT_RATE": "50"])
        #expect(slow.status == 0, "\(slow.stderr)")
        #expect(slow.stderr.hasPrefix("inspector: http://127.0.0.1:"), "\(slow.stderr)")
    }

    @Test func helpSaysWhatItDoes() async throws {
        let help = try await KarcRun.run(["--help"])
        #expect(help.stdout.contains("--inspect"))
        #expect(help.stdout.contains("Serve a live inspector of this session on 127.0.0.1"))
        #expect(help.stdout.contains("KARC_INSPECT_RATE"))
        #expect(help.stdout.contains("--inspect-port <PORT>"))
        // An attached shell's session runs in the app: the app serves its page (AttachInspectTests).
        let attach = try await KarcRun.run(["attach", "--help"])
        #expect(attach.stdout.contains("--inspect"))
        #expect(attach.stdout.contains("Ask the app for a live inspector of this session"))
        let serve = try await KarcRun.run(["serve", "--help"])
        #expect(serve.stdout.contains("Serve a live inspector of the app on 127.0.0.1"))
    }
}

/// A TCP socket listening on a free port of 127.0.0.1: a port another program holds.
struct LoopbackListener {
    let fd: Int32
    let port: Int

    init() throws {
        // Close-on-exec: a child another test spawns meanwhile would hold the port after `close`.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        guard bound else {
            _ = Glibc.close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        _ = Glibc.close(fd)
    }
}
