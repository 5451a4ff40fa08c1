import Foundation
import Testing

/// The demo scripts are checked transcripts, and README.md's session is one of them.
@Suite(.timeLimit(.minutes(1))) struct DemoTranscriptTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    var scripts: [String] {
        get throws {
            let demo = repository.appendingPathComponent("scripts/demo")
            return try FileManager.default.contentsOfDirectory(atPath: demo.path).filter { $0.hasSuffix(".karc") }.sorted()
                .map { demo.appendingPathComponent($0).path }
        }
    }

    @Test func everyDemoScriptPrintsWhatItsTranscriptSays() async throws {
        let scripts = try scripts
        #expect(scripts.count >= 6)
        let run = try await KarcRun.run(["check", "--tick", "200ms"] + scripts)
        // A failure shows the unified diff of each script that printed something else (`make readme` rewrites them).
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("\(scripts.count) transcripts: \(scripts.count) passed\n"), "\(run.stdout)")
    }

    /// README.md shows scripts/demo/readme.karc as `karc --echo` prints it (`make readme` copies it).
    @Test func theReadmeSessionIsTheCheckedTranscript() throws {
        let transcript = try String(contentsOf: repository.appendingPathComponent("scripts/demo/readme.karc"), encoding: .utf8)
        let rendered = transcript.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            if line.hasPrefix("#=") { return String(line.dropFirst(line.hasPrefix("#= ") ? 3 : 2)) }
            if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) { return nil }
            return "> " + line
        }
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- transcript: scripts/demo/readme.karc (make readme) -->\n```\n"
        let start = try #require(readme.range(of: marker))
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        #expect(String(readme[start.upperBound..<end.lowerBound]) == rendered.joined(separator: "\n") + "\n")
    }

    /// README.md draws the session's login flow as `karc export-diagram` writes it today (`make readme` puts it there).
    @Test func theReadmeDiagramIsWhatExportDiagramDraws() async throws {
        let drawn = try await KarcRun.run(["export-diagram", repository.appendingPathComponent("scripts/demo/readme.karc").path, "--commands", "3"])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- diagram: karc export-diagram scripts/demo/readme.karc --commands 3 (make readme) -->\n"
        let start = try #require(readme.range(of: marker))
        let end = try #require(readme.range(of: "```\n", range: readme.index(start.upperBound, offsetBy: 4)..<readme.endIndex))
        let block = String(readme[start.upperBound..<end.upperBound])
        #expect(block == drawn.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n"))
        #expect(block.hasPrefix("```mermaid\nsequenceDiagram\n"))
    }
}
