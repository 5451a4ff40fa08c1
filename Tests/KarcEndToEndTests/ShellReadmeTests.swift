import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct ShellReadmeTests {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    var readme: String {
        get throws {
            try String(contentsOf: here.appendingPathComponent("../../README.md").standardized, encoding: .utf8)
        }
    }

    @Test func theShellExampleRuns() async throws {
        #expect(try await runShop(commands: ["cart.add name=apple", "cart.add name=pear quantity=2", "cart.clear"]) == 0)
        #expect(try await runShop(commands: ["cart.add"]) == 1, "a missing field fails the run")
    }

    @Test func theReadmeShowsExactlyTheShellExampleThatIsTested() async throws {
        let source = try String(contentsOf: here.appendingPathComponent("ShellReadmeExample.swift"), encoding: .utf8)
        let begin = try #require(source.range(of: "// README-SHELL-BEGIN\n"))
        let end = try #require(source.range(of: "// README-SHELL-END"))
        let example = String(source[begin.upperBound..<end.lowerBound])
        #expect(try readme.contains("```swift\n" + example + "```"), "README.md's shell example differs from ShellReadmeExample.swift")
    }

    /// The README's session transcript is what `karc --echo` prints for its commands.
    @Test func theReadmeTranscriptIsWhatTheBinaryPrints() async throws {
        let readme = try readme
        let start = try #require(readme.range(of: "```\n> counter.increment-by-three"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let transcript = String(readme[readme.index(start.lowerBound, offsetBy: 4)..<end.lowerBound])
        let commands = transcript.split(separator: "\n").filter { $0.hasPrefix("> ") }.map { $0.dropFirst(2) }
        let run = try await KarcRun.run(["--echo"], input: commands.joined(separator: "\n") + "\n")
        #expect(run.status == 0)
        #expect(run.stdout == transcript)
    }
}
