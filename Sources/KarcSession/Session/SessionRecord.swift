import Foundation
import KarcLanguage

/// The lines a session ran, to save as a script that replays it (`:save`)
/// or to append to a file as they run (`--record`). Lines run by `:source`
/// are not listed: the `:source` line is, and replays them.
struct SessionRecord {
    struct Entry {
        let line: String
        let succeeded: Bool
    }

    private(set) var entries: BoundedLog<Entry>
    /// How many of the oldest lines were dropped (`--history-limit`).
    var dropped: Int { entries.dropped }
    /// `--record`: appends each line to its file once it ran.
    var recording: (@Sendable (String) -> Void)?
    /// `--with-failures`: `recording` gets the lines that failed too; else,
    /// as `:save`, only those that succeeded, so the file replays.
    var recordsFailures = false

    init(limit: Int = ShellOptions.defaultHistoryLimit) {
        entries = BoundedLog(limit: limit)
    }

    /// Lines that are not part of a replay: blank lines, comments, and meta
    /// commands that are not replayed (``MetaCommand/isReplayed``). Read as
    /// bytes: every line of a script comes through here.
    static func isKept(_ line: String) -> Bool {
        let bytes = line.utf8.drop { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.first, first != UInt8(ascii: "#") else { return false }
        guard first == UInt8(ascii: ":") else { return true }
        let name = String(decoding: bytes.dropFirst().prefix { $0 != 0x20 && $0 != 0x09 }, as: UTF8.self)
        return MetaCommands.named(name)?.isReplayed ?? true
    }

    mutating func add(_ line: String, succeeded: Bool) {
        guard Self.isKept(line) else { return }
        entries.append(Entry(line: line, succeeded: succeeded))
        if succeeded || recordsFailures { recording?(line + "\n") }
    }

    /// The header a saved or recorded script starts with.
    static func header(cluster: String, verb: String) -> String {
        "# karc session \(verb) \(Date().formatted(.iso8601)) against \(cluster); run it with: \(ProgramName.current) FILE\n"
    }

    /// `:save FILE`: the lines that succeeded (all with `all`), as a script;
    /// a comment says so when the oldest were dropped.
    func saved(cluster: String, all: Bool) -> String {
        let lines = entries.entries.filter { all || $0.succeeded }.map(\.line)
        var text = Self.header(cluster: cluster, verb: "saved")
        if dropped > 0 {
            text +=
                "# the first \(Names.counted(dropped, "line")) of the session were dropped (--history-limit \(entries.limit)): this script starts after them\n"
        }
        return text + lines.map { $0 + "\n" }.joined()
    }

    /// How many lines ``saved(cluster:all:)`` writes.
    func count(all: Bool) -> Int {
        entries.entries.count { all || $0.succeeded }
    }
}
