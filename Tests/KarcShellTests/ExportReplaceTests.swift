import Foundation
import KarcShell
import TestSupport
import Testing

@testable import KarcSession

/// `:export-test` and `:export-diagram` replace a file only when it holds
/// what this session wrote there (by any command that writes files) or
/// nothing, as `:save` does (SaveTests): a file the user wrote is kept
/// unless `--force`.
@Suite(.timeLimit(.minutes(1)))
struct ExportReplaceTests {
    let scratch = ScratchDirectory("karc-export-replace")

    var options: ShellOptions {
        var options = ShellOptions()
        options.printing.color = false
        options.printing.quiet = true
        options.keepGoing = true
        options.testExport.factory = "try await makeLibrary()"
        return options
    }

    func errors(_ run: Transcript) -> [String] {
        run.errors.split(separator: "\n").filter { $0.contains("error:") }.map { $0.replacingOccurrences(of: scratch.path + "/", with: "") }
    }

    func text(_ file: String) throws -> String {
        try String(contentsOfFile: file, encoding: .utf8)
    }

    static let handWrittenTest = "import Testing\n\n@Test func checkout() {}\n"
    static let handWrittenDiagram = "# Checkout\n\n```mermaid\nsequenceDiagram\n```\n"

    @Test func aTestTheUserWroteIsKeptAndTheRefusalSaysHowToReplaceIt() async throws {
        let file = scratch.file("FlowTests.swift")
        try Self.handWrittenTest.write(toFile: file, atomically: true, encoding: .utf8)

        let run = try await Transcript.run(try await SaveTests.library(), ["shelf.add title=Dune", ":export-test \(file)"], options: options)
        #expect(run.status == 1)
        #expect(
            errors(run) == [
                "<test>:2:14: error: not replacing FlowTests.swift: it holds 3 lines that this session did not write; nothing was written. "
                    + ":export-test --force FlowTests.swift replaces it, or give another file"
            ])
        #expect(try text(file) == Self.handWrittenTest)
    }

    @Test func forceReplacesATestTheUserWrote() async throws {
        let file = scratch.file("FlowTests.swift")
        try Self.handWrittenTest.write(toFile: file, atomically: true, encoding: .utf8)

        let run = try await Transcript.run(try await SaveTests.library(), ["shelf.add title=Dune", ":export-test --force \(file)"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        #expect(try text(file).contains("Dune"))
        #expect(try !text(file).contains("func checkout()"))
    }

    @Test func aTestThisSessionWroteIsReplacedUntilTheUserEditsIt() async throws {
        let file = scratch.file("FlowTests.swift")
        let run = try await Transcript.run(
            try await SaveTests.library(),
            [
                "shelf.add title=Dune", ":export-test \(file)", "shelf.add title=Emma", ":export-test \(file)",
                "shelf.scribble path=\(file)", ":export-test \(file)",
            ], options: options)
        let refusal = try #require(errors(run).first, "\(run.errors)")
        #expect(errors(run).count == 1)
        #expect(refusal.hasPrefix("<test>:6:14: error: not replacing FlowTests.swift: it holds "))
        #expect(
            refusal.hasSuffix(
                " lines that this session did not write; nothing was written. :export-test --force FlowTests.swift replaces it, or give another file")
        )
        #expect(try text(file).contains("Emma"), "the second export replaced the first")
        #expect(try text(file).hasSuffix("# my own note\n"), "the user's edit is kept")
    }

    @Test func aDiagramTheUserWroteIsKeptAndTheRefusalSaysHowToReplaceIt() async throws {
        let file = scratch.file("flow.md")
        try Self.handWrittenDiagram.write(toFile: file, atomically: true, encoding: .utf8)

        let run = try await Transcript.run(try await SaveTests.library(), ["shelf.add title=Dune", ":export-diagram \(file) 1"], options: options)
        #expect(run.status == 1)
        #expect(
            errors(run) == [
                "<test>:2:17: error: not replacing flow.md: it holds 5 lines that this session did not write; nothing was written. "
                    + ":export-diagram --force flow.md 1 replaces it, or give another file"
            ])
        #expect(try text(file) == Self.handWrittenDiagram)
    }

    @Test func forceReplacesADiagramTheUserWrote() async throws {
        let file = scratch.file("flow.md")
        try Self.handWrittenDiagram.write(toFile: file, atomically: true, encoding: .utf8)

        let run = try await Transcript.run(
            try await SaveTests.library(), ["shelf.add title=Dune", ":export-diagram --force \(file) 1"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        #expect(try text(file).hasPrefix("<!-- karc: the flow of #1 shelf.add in library -->\n```mermaid\nsequenceDiagram\n"))
    }

    @Test func aDiagramThisSessionWroteIsReplacedUntilTheUserEditsIt() async throws {
        let file = scratch.file("flow.md")
        let run = try await Transcript.run(
            try await SaveTests.library(),
            [
                "shelf.add title=Dune", ":export-diagram \(file)", "shelf.add title=Emma", ":export-diagram \(file)",
                "shelf.scribble path=\(file)", ":export-diagram \(file)",
            ], options: options)
        let refusal = try #require(errors(run).first, "\(run.errors)")
        #expect(errors(run).count == 1)
        #expect(refusal.hasPrefix("<test>:6:17: error: not replacing flow.md: it holds "))
        #expect(
            refusal.hasSuffix(
                " lines that this session did not write; nothing was written. :export-diagram --force flow.md replaces it, or give another file"))
        #expect(try text(file).hasPrefix("<!-- karc: the flow of #1 shelf.add, #3 shelf.add in library -->"), "the second export replaced the first")
        #expect(try text(file).hasSuffix("# my own note\n"), "the user's edit is kept")
    }

    @Test func aFileAnyOfTheSessionsCommandsWroteIsItsToReplace() async throws {
        let file = scratch.file("flow.md")
        let run = try await Transcript.run(
            try await SaveTests.library(),
            ["shelf.add title=Dune", ":export-test \(file)", ":export-diagram \(file)", ":save \(file)", ":export-diagram \(file)"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        #expect(try text(file).hasPrefix("<!-- karc: the flow of #1 shelf.add in library -->"))
    }
}
