import Foundation
import Testing

/// Runs the real `karc` binary, built next to this test bundle by `swift build --build-tests`.
struct KarcRun {
    let status: Int32
    let stdout: String
    let stderr: String

    static func run(_ arguments: [String]) throws -> KarcRun {
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let binary = buildDirectory.appendingPathComponent("karc")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw MissingBinary(path: binary.path)
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return KarcRun(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }
}

struct MissingBinary: Error, CustomStringConvertible {
    let path: String
    var description: String { "no karc binary at \(path); build it first (`make test` runs `swift build --build-tests`)" }
}

@Suite(.timeLimit(.minutes(1))) struct KarcExecutableTests {
    @Test func theNarratedSessionShowsRepliesEventsStateAndScopes() throws {
        let run = try KarcRun.run([])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        // The same transcript on every run: replies, events and state changes in a fixed order.
        #expect(run.stdout == """
        > tally.add amount=2
          reply  2
          event  Added(count: 2)
          state  count: 0 → count: 2
        > tally.celebrate
          error  nothing on commands of TallyModel (transient, anycast) accepts Celebrate
        > tally.add
          reply  3
          event  Added(count: 3)
          state  count: 2 → count: 3
        > tally.celebrate
          reply  🎉 3 reached
        > tally.clear
          reply  ok
          event  Cleared()
          state  count: 3 → count: 0
        > tally.celebrate
          error  nothing on commands of TallyModel (transient, anycast) accepts Celebrate

        """)
    }

    @Test func theReadmeTranscriptIsWhatTheBinaryPrints() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md").standardized,
            encoding: .utf8
        )
        let start = try #require(readme.range(of: "```\n> tally.add"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let transcript = String(readme[readme.index(start.lowerBound, offsetBy: 4)..<end.lowerBound])
        #expect(try KarcRun.run([]).stdout.hasPrefix(transcript))
    }

    @Test func helpAndVersion() throws {
        let help = try KarcRun.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: karc"))
        let version = try KarcRun.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "karc 0.1.0\n")
    }

    @Test func anUnknownArgumentIsRefusedWithWhatIsAccepted() throws {
        let run = try KarcRun.run(["--frobnicate"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "karc: unknown argument '--frobnicate'; accepted: --help, --version\n")
    }
}
