import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct ReadmeExampleTests {
    @Test func theReadmeExampleRunsAsDescribed() async throws {
        #expect(try await countToThree() == [2, 3])
    }

    @Test func theReadmeShowsExactlyTheCodeThatIsTested() async throws {
        let here = URL(fileURLWithPath: #filePath)
        let source = try String(contentsOf: here.deletingLastPathComponent().appendingPathComponent("ReadmeExample.swift"), encoding: .utf8)
        let readme = try String(
            contentsOf: here.deletingLastPathComponent().appendingPathComponent("../../README.md").standardized,
            encoding: .utf8
        )
        let begin = try #require(source.range(of: "// README-BEGIN\n"))
        let end = try #require(source.range(of: "// README-END"))
        let example = String(source[begin.upperBound..<end.lowerBound])
        #expect(
            readme.contains("```swift\n" + example + "```"), "README.md's library example differs from Tests/KarcEndToEndTests/ReadmeExample.swift")
    }
}
