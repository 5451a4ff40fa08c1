import Foundation
import KarcShell
import KarcShellTrellis
import TestSupport
import Testing
import Trellis

/// `:snapshot`, `:restore`, `:snapshots`, `:undo` and snapshot files, on a
/// cluster of the user's own: a shelf of books (a value store), a stamp
/// that opts in to restores (an actor, `Restorable`), and a ledger that
/// does not (an actor), which every restore names and leaves as it is.
@Suite(.timeLimit(.minutes(1)))
struct SnapshotTests {
    struct Book: Equatable, Sendable, Codable {
        var title: String
        var loans = 0
    }
    struct Shelf: Equatable, Sendable, Codable {
        var books: [Book] = []
    }

    actor Stamp: StatefulModel, Restorable {
        var state = 0
        func stamp() { state += 1 }
        func restore(_ state: Int) { self.state = state }
    }

    actor Ledger: StatefulModel {
        var state = 0
        func add() { state += 1 }
    }

    struct Add: Action, Codable { var title: String }
    struct Lend: Action, Codable { var index: Int }
    struct Press: Action, Codable {}
    struct Note: Action, Codable {}

    static func library(name: String = "library") async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Shelf.self)
                .mutate(on: Add.self) { shelf, add, _ in shelf.books.append(Book(title: add.title)) }
                .mutate(on: Lend.self) { shelf, lend, _ in shelf.books[lend.index].loans += 1 }
                .with(model: Shelf()).named("shelf")
            Store(model: Stamp.self).mutate(on: Press.self) { stamp, _, _ in stamp.stamp() }.with(model: Stamp()).named("stamp")
            Store(model: Ledger.self).mutate(on: Note.self) { ledger, _, _ in ledger.add() }.with(model: Ledger()).named("ledger")
        }
        return ClusterShell(name: name, cluster: cluster)
    }

    var plain: ShellOptions { .plain(quiet: true) }

    static func lines(_ output: String, _ prefix: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
    }

    @Test func aRestorePutsEveryRestorableTargetBackAndPrintsTheChangesAsACommand() async throws {
        let library = try await Self.library()
        let run = try await Transcript.run(
            library,
            [
                ":snapshot start", "shelf.add title=Dune", "stamp.press", "ledger.note", ":restore start", ":state stamp", ":state ledger",
                ":blame stamp",
            ], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.hasPrefix(
                """
                snapshot  'start' keeps shelf, stamp
                  left out, they cannot be restored: ledger

                """))
        let restore = try #require(run.output.range(of: "state  shelf:\n  - SnapshotTests.Shelf(\n  -   books: [\n"))
        let told = run.output[restore.lowerBound...]
        #expect(told.contains("state  stamp:\n  - 1\n  + 0\nrestored  'start': shelf, stamp\n  left as they are, they cannot be restored: ledger\n"))
        #expect(run.output.contains("state  stamp: 0\n"))
        #expect(run.output.contains("state  ledger: 1\n"))  // left as it was
        // The restore is the command that changed it, as :blame and :watch tell.
        #expect(run.output.contains("blame  stamp: 2 changes, newest first\n  #5  "))
        #expect(run.output.contains(":restore start   1 → 0\n"))
    }

    @Test func undoGoesBackOneCommandThatChangedSomethingAtATime() async throws {
        let library = try await Self.library()
        var options = plain
        options.keepGoing = true
        let run = try await Transcript.run(
            library,
            [
                "shelf.add title=Dune", "stamp.press", ":state shelf", "ledger.note", ":undo 3", ":undo", ":state stamp", ":state ledger",
                ":undo", ":state shelf books", ":undo",
            ], options: options)
        // `ledger.note` changed only what cannot be restored: the first :undo goes past it to `stamp.press`, and names the ledger.
        #expect(
            Self.lines(run.output, "undone") == [
                "undone  #2 stamp.press: stamp",
                "undone  #1 shelf.add title=Dune: shelf",
            ])
        #expect(run.output.contains("undone  #2 stamp.press: stamp\n  left as they are, they cannot be restored: ledger\n"))
        let errors = run.errors.split(separator: "\n").filter { $0.contains("error:") }.map(String.init)
        #expect(
            errors == [
                "<test>:5:7: error: only 2 commands can be undone (:undo 2); no other command of this session changed a state that can be restored",
                "<test>:11:2: error: nothing to undo: no command changed a state that can be restored since the session began (or since the last :undo)",
            ], "\(run.errors)")
        #expect(run.output.contains("state  stamp: 0\n"))
        #expect(run.output.contains("state  ledger: 1\n"))
        #expect(run.output.contains("state  shelf books: []\n"))
    }

    /// Past the undo points kept, `:undo N` says they were not kept, not that there were none.
    @Test func undoingPastTheKeptPointsSaysHowManyAreKept() async throws {
        let library = try await Self.library()
        var options = plain
        options.keepGoing = true
        let adds = Array(repeating: "shelf.add title=Dune", count: 101)
        let run = try await Transcript.run(library, adds + [":undo 101"], options: options)
        #expect(
            run.errors.contains(
                "error: only 100 commands can be undone (:undo 100); older ones are not kept (the session keeps the states before its last 100 commands)"
            ), "\(run.errors)")
    }

    @Test func undoingSeveralCommandsPutsALongListTogetherFromTheKeptParts() async throws {
        let library = try await Self.library()
        let adds = (1...300).map { "shelf.add title=B\($0)" }
        let run = try await Transcript.run(
            library, [":diff off"] + adds + ["shelf.lend index=6", "shelf.add title=Last", ":diff on", ":undo 2", ":state shelf books[6]"],
            options: plain)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("undone  #303 shelf.add title=Last, #302 shelf.lend index=6: shelf\n"))
        #expect(run.output.contains("state  shelf books[6]: SnapshotTests.Book(\n"))
        #expect(run.output.contains("loans: 0\n"))
        let shelf = try #require(await library.state(of: "shelf") as? Shelf)
        #expect(shelf.books.count == 300)
        #expect(shelf.books.allSatisfy { $0.loans == 0 })
    }

    @Test func theSnapshotsKeptAreTheNamesThePromptCompletes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karc-snapshot-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("before.json").path
        let words = PromptWords()
        let kept = try await Transcript.run(
            try await Self.library(),
            [":snapshot before", "shelf.add title=Dune", ":snapshot after", ":snapshot before", ":snapshot save before \(file)"],
            options: plain, words: words)
        #expect(kept.status == 0, "\(kept.errors)")
        #expect(words.snapshots == ["after", "before"], "one name each, the one kept again last")
        // A snapshot that could not be kept adds no name; one read from a file adds the name it is kept under.
        let other = PromptWords()
        let loaded = try await Transcript.run(
            try await Self.library(), [":snapshot load \(file) from-file", ":snapshot load \(file).missing", ":snapshot"], options: plain,
            words: other)
        #expect(loaded.status == 1)
        #expect(other.snapshots == ["from-file"])
    }

    @Test func aSnapshotSavedToAFileIsReadBackByAnotherSession() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karc-snapshots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("two.json").path

        let first = try await Self.library()
        let saved = try await Transcript.run(
            first, ["shelf.add title=Dune", "stamp.press", "stamp.press", ":snapshot two", ":snapshot save two \(file)"], options: plain)
        #expect(saved.status == 0, "\(saved.errors)")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)  // it holds the app's state
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix(#"{"karc-snapshot":1,"cluster":"library","name":"two","saved":""#))

        let second = try await Self.library()
        let loaded = try await Transcript.run(second, [":snapshot load \(file)", ":snapshots", ":restore two"], options: plain)
        #expect(loaded.status == 0, "\(loaded.errors)")
        #expect(loaded.output.contains("snapshot  'two' (\(file)) keeps shelf, stamp\n"))
        #expect(loaded.output.contains("from \(file)  shelf, stamp  "))
        #expect(try #require(await second.state(of: "shelf") as? Shelf) == Shelf(books: [Book(title: "Dune")]))
        #expect(await second.state(of: "stamp") as? Int == 2)

        // The file's time is the snapshot's, as `--json` writes it.
        let savedAt = try #require(text.firstMatch(of: #/"saved":"([^"]+)"/#)?.output.1)
        var json = plain
        json.printing.json = true
        let listed = try await Transcript.run(try await Self.library(), [":snapshot load \(file)", ":snapshots"], options: json)
        #expect(listed.output.contains(#""time":"\#(savedAt)""#), "\(listed.output)")
    }

    @Test func aFileThatDoesNotFitIsRefusedNamingWhyAndNothingIsKept() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karc-snapshots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ text: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let header = #"{"karc-snapshot":1,"cluster":"library","name":"x","saved":"2026-11-26T10:00:00.000Z","left":[],"states":"#
        let notJSON = try write("notes.txt", "shelf.add title=Dune\n")
        let newer = try write("newer.json", #"{"karc-snapshot":2,"cluster":"library","states":{}}"#)
        let other = try write("other.json", #"{"karc-snapshot":1,"cluster":"shop","states":{}}"#)
        let added = try write("added.json", header + #"{"shelf":{"books":[{"title":"Dune"}]}}}"#)
        let removed = try write("removed.json", header + #"{"shelf":{"books":[{"title":"Dune","loans":0,"isbn":"1"}]}}}"#)
        let unknown = try write("unknown.json", header + #"{"desk":3}}"#)
        let unrestorable = try write("ledger.json", header + #"{"stamp":1,"ledger":3}}"#)
        let wrongType = try write("type.json", header + #"{"stamp":"three"}}"#)
        let missing = directory.appendingPathComponent("missing.json").path
        let unwritable = directory.appendingPathComponent("no/such/dir/s.json").path

        var options = plain
        options.keepGoing = true
        let library = try await Self.library()
        let run = try await Transcript.run(
            library,
            [
                ":snapshot load \(notJSON)", ":snapshot load \(newer)", ":snapshot load \(other)", ":snapshot load \(added)",
                ":snapshot load \(removed)", ":snapshot load \(unknown)", ":snapshot load \(unrestorable)", ":snapshot load \(wrongType)",
                ":snapshot load \(missing)", ":snapshot s", ":restore t", ":snapshot save s \(unwritable)", ":snapshots", ":restore strt", ":restore",
                ":snapshot save", ":snapshot a/b", ":snapshot", ":undo zero",
            ], options: options)
        let empty = try await Transcript.run(try await Self.library(), [":restore x"], options: options)
        #expect(empty.errors.contains("<test>:1:10: error: no snapshot named 'x'. No snapshot is kept yet (:snapshot NAME keeps one)."))
        #expect(run.status == 1)
        let errors = run.errors.split(separator: "\n").filter { $0.contains("error:") }.map {
            $0.replacingOccurrences(of: directory.path + "/", with: "")
        }
        #expect(
            errors == [
                "<test>:1:16: error: notes.txt is not a karc snapshot (a JSON object with \"karc-snapshot\", written by :snapshot save)",
                "<test>:2:16: error: newer.json is a snapshot of schema 2; this karc reads schema 1",
                "<test>:3:16: error: other.json is a snapshot of the cluster 'shop', not of 'library'",
                "<test>:4:16: error: added.json does not fit the state of shelf (KarcShellTests.SnapshotTests.Shelf) now: the field shelf.books[0].loans is new (the file has no value for it); nothing was read",
                "<test>:5:16: error: removed.json does not fit the state of shelf (KarcShellTests.SnapshotTests.Shelf) now: the field shelf.books[0].isbn is no longer there; nothing was read",
                "<test>:6:16: error: unknown.json holds a state of 'desk', which library does not have; targets: shelf, stamp, ledger",
                "<test>:7:16: error: ledger.json holds a state of 'ledger', which cannot be restored",
                "<test>:8:16: error: type.json does not fit the state of stamp (Int) now: stamp: expected Int, found a string; nothing was read",
                "<test>:9:16: error: cannot read missing.json: no such file",
                "<test>:11:10: error: no snapshot named 't'; did you mean 's'? Snapshots: s",
                "<test>:12:18: error: cannot write no/such/dir/s.json: No such file or directory",
                "<test>:14:10: error: no snapshot named 'strt'. Snapshots: s",
                "<test>:15:2: error: :restore needs a snapshot's name: :restore before-login (:snapshots lists them)",
                "<test>:16:11: error: :snapshot save takes a snapshot's name and a file: :snapshot save before-login before.json (--force replaces a file this session did not write)",
                "<test>:17:11: error: 'a/b' is not a snapshot name: use letters, digits, '-', '_' and '.' (not 'save' or 'load'), like :snapshot before-login",
                "<test>:18:2: error: :snapshot needs a name: :snapshot before-login (:snapshots lists those kept)",
                "<test>:19:7: error: expected a number of commands to undo (like :undo 2), got 'zero'",
            ], "\(run.errors)")
        #expect(Self.lines(run.output, "snapshot  ").count == 2)  // `s`, kept and listed; nothing was kept from a file
        #expect(!FileManager.default.fileExists(atPath: unwritable))
    }

    @Test func snapshotsAndRestoresAreJSONLines() async throws {
        let library = try await Self.library()
        var options = plain
        options.printing.json = true
        let run = try await Transcript.run(library, [":snapshot s", "stamp.press", ":snapshots", ":undo", ":restore s"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        let objects = run.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let kept = try #require(objects.first { $0["kind"] as? String == "snapshot-kept" })
        #expect(kept["name"] as? String == "s")
        #expect(kept["targets"] as? [String] == ["shelf", "stamp"])
        #expect(kept["left"] as? [String] == ["ledger"])
        #expect(kept["time"] is String)
        let listed = try #require(objects.first { $0["kind"] as? String == "snapshots" })
        #expect((listed["snapshots"] as? [[String: Any]])?.first?["name"] as? String == "s")
        let restored = objects.filter { $0["kind"] as? String == "snapshot-restored" }
        #expect(restored.count == 2)
        #expect((restored[0]["undone"] as? [[String: Any]])?.first?["number"] as? Int == 2)
        #expect(restored[0]["targets"] as? [String] == ["stamp"])
        #expect(restored[1]["name"] as? String == "s")
    }

    /// A state that is not Codable: kept and restored in a session, but not in a file, and not undone once it holds a long list.
    struct Marks: Equatable, Sendable { var marks: [Int] = [] }
    struct Mark: Action, Codable {}

    @Test func aStateThatIsNotCodableIsKeptInTheSessionAndSaysWhatItCannotDo() async throws {
        let cluster = try await Bootstrap {
            Store(model: Marks.self).mutate(on: Mark.self) { marks, _, _ in marks.marks.append(marks.marks.count) }.with(model: Marks()).named(
                "marks")
        }
        let shell = ClusterShell(name: "marks", cluster: cluster)
        var options = plain
        options.keepGoing = true
        options.printing.diff = .off
        let run = try await Transcript.run(
            shell,
            ["marks.mark", ":undo", ":snapshot few", ":snapshot save few /tmp/never-written.json"] + Array(repeating: "marks.mark", count: 300) + [
                ":undo", ":restore few",
            ],
            options: options)
        let errors = run.errors.split(separator: "\n").filter { $0.contains("error:") }.map(String.init)
        #expect(
            errors == [
                "<test>:4:16: error: cannot save 'few': the state of marks (KarcShellTests.SnapshotTests.Marks) is not Encodable; :snapshot keeps it in this session, a file needs Codable states",
                "<test>:305:2: error: cannot undo marks: its state holds a long list (kept in parts) and Marks is not Decodable, so it cannot be put together again; nothing was restored",
            ], "\(run.errors)")
        #expect(run.output.contains("undone  #1 marks.mark: marks\n"))
        #expect(run.output.contains("restored  'few': marks\n"))
        #expect(await shell.state(of: "marks") as? Marks == Marks())
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.json"))
    }

    @Test func aClusterWithoutSnapshotsSaysSo() async throws {
        let run = try await Transcript.run(BareCluster(), [":snapshot s"], options: plain)
        #expect(run.status == 1)
        #expect(
            run.errors.contains("cannot take a snapshot: this cluster cannot restore its targets (its ShellCluster is not a RestorableShellCluster)"))
        let undo = try await Transcript.run(BareCluster(), [":undo"], options: plain)
        #expect(undo.status == 1)
        #expect(undo.errors.contains("cannot undo: this cluster cannot restore its targets (its ShellCluster is not a RestorableShellCluster)"))
        // A file is not read at all: nothing in it could be put back.
        let load = try await Transcript.run(BareCluster(), [":snapshot load /nonexistent/s.json"], options: plain)
        #expect(load.status == 1)
        #expect(
            load.errors.contains(
                "cannot load a snapshot: this cluster cannot restore its targets (its ShellCluster is not a RestorableShellCluster)"),
            "\(load.errors)")
    }

    @Test func anExportedTestRestoresWhatTheSessionRestored() async throws {
        let library = try await Self.library()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("karc-undo-\(UUID().uuidString).swift").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        var options = plain
        options.testExport.factory = "try await makeLibrary()"
        let run = try await Transcript.run(
            library, [":snapshot s", "stamp.press", "shelf.add title=Dune", ":undo", ":export-test \(file)"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        let test = try String(contentsOfFile: file, encoding: .utf8)
        #expect(test.contains("import Trellis\n"))
        #expect(
            test.contains(
                """
                    // <test>:4: :undo
                    // SnapshotTests.Shelf has no initializer karc can see (mark it @Memberwise): it is decoded from its JSON.
                    try await store.restore(ClusterSnapshot(states: [
                        "shelf": try decoded(SnapshotTests.Shelf.self, json: #"{"books":[]}"#),
                    ]))
                    // Each target's state at the end.
                    await store.expectState("shelf", toBe: try decoded(SnapshotTests.Shelf.self, json: #"{"books":[]}"#))
                """), "\(test)")
    }

    @Test func anExportedTestRefusesARestoreOfAStateThatIsNotCodable() async throws {
        let cluster = try await Bootstrap {
            Store(model: Marks.self).mutate(on: Mark.self) { marks, _, _ in marks.marks.append(1) }.with(model: Marks()).named("marks")
        }
        var options = plain
        options.testExport.factory = "try await makeMarks()"
        let run = try await Transcript.run(
            ClusterShell(name: "marks", cluster: cluster), ["marks.mark", ":undo", ":export-test /dev/null"], options: options)
        #expect(run.status == 1)
        #expect(
            run.errors.contains(
                "cannot write <test>:2: :undo as Swift: the state of marks (SnapshotTests.Marks) is not Codable, so a test cannot restore it"),
            "\(run.errors)")
    }
}
