import Foundation
import KarcShell
import KarcShellTrellis
import TestSupport
import Testing
import Trellis

@testable import KarcSession

/// `:save` and `:snapshot save` replace a file only when it holds what this
/// session wrote there (or nothing): anything else is kept unless `--force`.
@Suite(.timeLimit(.minutes(1)))
struct SaveTests {
    let scratch = ScratchDirectory("karc-save-file")

    struct Shelf: Equatable, Sendable, Codable {
        var books: [String] = []
    }
    struct Add: Action, Codable { var title: String }
    /// Appends a line to a file, as a user's editor would between two saves.
    struct Scribble: Action, Codable { var path: String }

    static func library() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Shelf.self)
                .mutate(on: Add.self) { shelf, add, _ in shelf.books.append(add.title) }
                .mutate(on: Scribble.self) { _, scribble, _ in
                    let text = try String(contentsOfFile: scribble.path, encoding: .utf8)
                    try (text + "# my own note\n").write(toFile: scribble.path, atomically: true, encoding: .utf8)
                }
                .with(model: Shelf()).named("shelf")
        }
        return ClusterShell(name: "library", cluster: cluster)
    }

    var plain: ShellOptions { .plain(quiet: true, keepGoing: true) }

    func errors(_ run: Transcript) -> [String] {
        run.errors.split(separator: "\n").filter { $0.contains("error:") }.map { $0.replacingOccurrences(of: scratch.path + "/", with: "") }
    }

    @Test func aHandWrittenScriptIsKeptUnlessForced() async throws {
        let file = scratch.file("keep.karc")
        let handWritten = (1...25).map { "shelf.add title=Book\($0)" }.joined(separator: "\n") + "\n"
        try handWritten.write(toFile: file, atomically: true, encoding: .utf8)

        let run = try await Transcript.run(try await Self.library(), ["shelf.add title=Dune", ":save \(file)"], options: plain)
        #expect(run.status == 1)
        #expect(
            errors(run) == [
                "<test>:2:7: error: not replacing keep.karc: it holds 25 lines that this session did not write; nothing was written. "
                    + ":save --force keep.karc replaces it, or give another file"
            ])
        #expect(try String(contentsOfFile: file, encoding: .utf8) == handWritten)

        let forced = try await Transcript.run(
            try await Self.library(), ["shelf.add title=Dune", ":save --force \(file) --with-failures"], options: plain)
        #expect(forced.status == 0, "\(forced.errors)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("\nshelf.add title=Dune\n"))
    }

    @Test func aFileThisSessionSavedIsSavedAgainUnderAnyOfItsNames() async throws {
        let file = scratch.file("session.karc")
        let run = try await Transcript.run(
            try await Self.library(),
            ["shelf.add title=Dune", ":save \(file)", "shelf.add title=Emma", ":save \(scratch.path)/./session.karc"], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(Array(lines) == ["shelf.add title=Dune", "shelf.add title=Emma"])
    }

    @Test func aFileChangedSinceThisSessionSavedItIsKept() async throws {
        let file = scratch.file("edited.karc")
        let run = try await Transcript.run(
            try await Self.library(), ["shelf.add title=Dune", ":save \(file)", "shelf.scribble path=\(file)", ":save \(file)"], options: plain)
        #expect(run.status == 1)
        #expect(
            errors(run).first?.hasPrefix("<test>:4:7: error: not replacing edited.karc: it holds 3 lines that this session did not write") == true)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("# my own note\n"))
    }

    @Test func aFileAnotherSessionSavedIsKept() async throws {
        let file = scratch.file("other.karc")
        let first = try await Transcript.run(try await Self.library(), ["shelf.add title=Dune", ":save \(file)"], options: plain)
        #expect(first.status == 0, "\(first.errors)")
        let second = try await Transcript.run(try await Self.library(), ["shelf.add title=Emma", ":save \(file)"], options: plain)
        #expect(second.status == 1)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("\nshelf.add title=Dune\n"))
    }

    @Test func anEmptyFileHoldsNothingToKeep() async throws {
        let file = scratch.file("empty.karc")
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        let run = try await Transcript.run(try await Self.library(), ["shelf.add title=Dune", ":save \(file)"], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("\nshelf.add title=Dune\n"))
    }

    @Test func aSnapshotIsNotWrittenOverAFileThisSessionDidNotWrite() async throws {
        let file = scratch.file("before.json")
        try "{\"mine\":true}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let run = try await Transcript.run(
            try await Self.library(),
            [":snapshot s", ":snapshot save s \(file)", ":snapshot save --force s \(file)", ":snapshot save s \(file)"], options: plain)
        #expect(
            errors(run) == [
                "<test>:2:18: error: not replacing before.json: it holds a line of 14 bytes that this session did not write; nothing was written. "
                    + ":snapshot save --force s before.json replaces it, or give another file"
            ])
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("{\"karc-snapshot\":1"), "forced, then saved again as its own")
    }

    @Test func aDirectoryIsNoFileToSaveIn() async throws {
        let run = try await Transcript.run(try await Self.library(), [":save \(scratch.path)"], options: plain)
        #expect(errors(run) == ["<test>:1:7: error: cannot write \(scratch.path): it is a directory"])
    }

    @Test func aFileThatAppearsWhileANewOneIsWrittenIsKept() throws {
        let file = scratch.file("raced.karc")
        try "mine\n".write(toFile: file, atomically: true, encoding: .utf8)
        // What `:save` does once it saw no file there: a new file only.
        #expect(throws: HostError("cannot write \(file): a file appeared there meanwhile, and it is kept")) {
            try WholeFile.write("theirs\n", to: file, replacing: false)
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "mine\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["raced.karc"], "no temporary file left")
        try WholeFile.write("new\n", to: scratch.file("new.karc"), replacing: false)
        #expect(try String(contentsOfFile: scratch.file("new.karc"), encoding: .utf8) == "new\n")
    }
}
