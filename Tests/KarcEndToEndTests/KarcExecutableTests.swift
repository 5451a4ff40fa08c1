import Foundation
import Testing

/// Runs the real `karc` binary, built next to this test bundle by `swift build --build-tests`.
struct KarcRun {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Standard output's lines parsed as JSON objects.
    var jsonLines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The `karc` binary built next to this test bundle.
    static var binaryPath: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("karc").path
    }

    /// Runs `karc arguments…` with `input` piped to its standard input.
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> KarcRun {
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let binary = buildDirectory.appendingPathComponent("karc")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw MissingBinary(path: binary.path)
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        var env = ProcessInfo.processInfo.environment
        // Nothing a test run persists reaches the user's own data.
        let scratch = NSTemporaryDirectory() + "karc-run-\(UUID().uuidString)"
        env["XDG_DATA_HOME"] = scratch + "/data"
        env["XDG_STATE_HOME"] = scratch + "/state"
        env.merge(environment) { $1 }
        process.environment = env
        try process.run()
        // Feed and drain concurrently: a big input or output must not fill a pipe and stall both sides.
        let writer = stdin.fileHandleForWriting
        let feeding = Thread {
            writer.write(Data(input.utf8))
            try? writer.close()
        }
        feeding.start()
        let errors = Captured()
        let draining = Thread { errors.data = err.fileHandleForReading.readDataToEndOfFile() }
        draining.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errors.isDone { usleep(1_000) }
        let stderr = errors.data
        return KarcRun(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }
}

/// Standard error, read on another thread.
final class Captured: @unchecked Sendable {  // `data` is written once by the reading thread, then only read after `isDone`.
    private let lock = NSLock()
    private var stored: Data?
    var data: Data {
        get { lock.withLock { stored ?? Data() } }
        set { lock.withLock { stored = newValue } }
    }
    var isDone: Bool { lock.withLock { stored != nil } }
}

struct MissingBinary: Error, CustomStringConvertible {
    let path: String
    var description: String { "no karc binary at \(path); build it first (`make test` runs `swift build --build-tests`)" }
}

@Suite(.timeLimit(.minutes(1))) struct KarcExecutableTests {
    @Test func helpAndVersion() throws {
        let help = try KarcRun.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: karc [<file>] [-e <CMD> ...] [--json] [--echo] [--keep-going] [--timeout <DURATION>]"))
        let version = try KarcRun.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "karc 0.3.0\n")
    }

    @Test func anUnknownArgumentIsRefusedWithWhatIsAccepted() throws {
        let run = try KarcRun.run(["--frobnicate"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("Unknown option '--frobnicate'"))
        #expect(run.stderr.contains("Usage: karc"))
    }

    @Test func aBadTimeoutIsRefused() throws {
        let run = try KarcRun.run(["--timeout", "soon", "-e", ":quit"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--timeout"))
    }

    @Test func completionScriptsComeFromTheArgumentParser() throws {
        let run = try KarcRun.run(["--generate-completion-script", "bash"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("_karc"))
    }
}
