import Foundation
import KarcRendering

extension OutputEvent {
    /// A snapshot the session keeps, as `:snapshot` and `:snapshots` tell it.
    package struct SnapshotInfo {
        package let name: String
        /// The targets it restores.
        package let targets: [String]
        /// The targets with a state it left out (they cannot be restored).
        package let left: [String]
        package let time: Date
        /// The command whose states it holds (``Snapshots/Kept/after``), and its line.
        package let after: Int?
        package let afterLine: String?
        /// The file it was read from or written to.
        package let file: String?
        /// The size of its states as JSON text.
        package let bytes: Int
        /// The snapshot of the same name it took the place of, as it was kept.
        package var replaced: Replaced?

        /// When a snapshot that was replaced had been taken.
        package struct Replaced {
            package let after: Int?
            package let afterLine: String?
            package let file: String?
            package let time: Date

            /// `taken after #12 counter.bump`, `taken before any command`, `read from s.json`.
            package var origin: String {
                if let file { return "read from \(file)" }
                return "taken " + SnapshotInfo.after(after, line: afterLine)
            }

            package init(after: Int?, afterLine: String?, file: String?, time: Date) {
                self.after = after
                self.afterLine = afterLine
                self.file = file
                self.time = time
            }
        }

        /// `after #12 counter.bump` (a long line cut), `before any command`.
        package static func after(_ number: Int?, line: String?) -> String {
            guard let number else { return "before any command" }
            guard let line else { return "after #\(number)" }
            return "after #\(number) " + (line.count > 40 ? line.prefix(39) + "…" : line)
        }

        package init(
            name: String, targets: [String], left: [String], time: Date, after: Int?, afterLine: String?, file: String?, bytes: Int,
            replaced: Replaced? = nil
        ) {
            self.name = name
            self.targets = targets
            self.left = left
            self.time = time
            self.after = after
            self.afterLine = afterLine
            self.file = file
            self.bytes = bytes
            self.replaced = replaced
        }
    }

    /// States a restore put back.
    package struct Restored {
        /// The snapshot restored; nil for `:undo`.
        package let name: String?
        /// The commands `:undo` undid, newest first, with their lines.
        package let undone: [(number: Int, line: String)]
        /// The targets put back (those whose state differed changed; the diff says how).
        package let targets: [String]
        /// Targets it could not put back, left as they are.
        package let left: [String]

        package init(name: String?, undone: [(number: Int, line: String)], targets: [String], left: [String]) {
            self.name = name
            self.undone = undone
            self.targets = targets
            self.left = left
        }
    }
}

extension ReadableFormatter {
    package func snapshots(_ snapshots: [OutputEvent.SnapshotInfo], kept: Bool, to sink: OutputSink) {
        if kept, let snapshot = snapshots.first {
            let file = snapshot.file.map { " (\($0))" } ?? ""
            sink.write(style.state("snapshot") + "  '\(snapshot.name)'\(file) keeps " + Self.list(snapshot.targets))
            if !snapshot.left.isEmpty { sink.write(style.dim("  left out, they cannot be restored: " + snapshot.left.joined(separator: ", "))) }
            if let replaced = snapshot.replaced { sink.write("  replaced snapshot \(snapshot.name) (\(replaced.origin))") }
            return
        }
        guard !snapshots.isEmpty else { return sink.write("no snapshots (:snapshot NAME keeps one)") }
        let width = snapshots.map { DisplayWidth.of($0.name) }.max() ?? 0
        for snapshot in snapshots {
            let origin = snapshot.file.map { "from \($0)" } ?? OutputEvent.SnapshotInfo.after(snapshot.after, line: snapshot.afterLine)
            sink.write(
                style.state("snapshot") + "  " + DisplayWidth.padded(snapshot.name, to: width) + "  "
                    + style.dim(Self.clockTime(snapshot.time)) + "  " + origin + "  " + Self.list(snapshot.targets) + "  "
                    + Self.size(snapshot.bytes))
        }
    }

    package func restored(_ restored: OutputEvent.Restored, to sink: OutputSink) {
        let head = restored.name == nil ? "undone" : "restored"
        var what = restored.name.map { "'\($0)'" } ?? ""
        if restored.name == nil {
            // A command over several lines keeps the column its text starts at.
            for (index, command) in restored.undone.enumerated() {
                if index > 0 { what += ", " }
                let number = "#\(command.number) "
                let column = head.count + 2 + DisplayWidth.of(what.split(separator: "\n", omittingEmptySubsequences: false).last ?? "") + number.count
                what += number + Self.indented(command.line, by: column)
            }
        }
        sink.write(style.state(head) + "  " + what + ": " + Self.list(restored.targets))
        if !restored.left.isEmpty {
            sink.write(style.dim("  left as they are, they cannot be restored: " + restored.left.joined(separator: ", ")))
        }
    }

    private static func list(_ targets: [String]) -> String {
        targets.isEmpty ? "no target" : targets.joined(separator: ", ")
    }

    /// `812 B`, `12.4 KB`, `3.1 MB`.
    package static func size(_ bytes: Int) -> String {
        if bytes < 1_000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.1f KB", Double(bytes) / 1_000) }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

extension JSONFormatter {
    /// A `snapshot-kept` line, or a `snapshots` line listing them.
    package func snapshots(_ snapshots: [OutputEvent.SnapshotInfo], kept: Bool) -> JSONObject {
        let described = snapshots.map { snapshot -> JSONObject in
            var object: JSONObject = [
                "name": snapshot.name, "targets": snapshot.targets, "left": snapshot.left, "time": JSONTime.text(snapshot.time),
                "bytes": snapshot.bytes,
            ]
            object["after"] = snapshot.after
            object["afterLine"] = snapshot.afterLine
            object["file"] = snapshot.file
            if let replaced = snapshot.replaced {
                var earlier: JSONObject = ["time": JSONTime.text(replaced.time)]
                earlier["after"] = replaced.after
                earlier["afterLine"] = replaced.afterLine
                earlier["file"] = replaced.file
                object["replaced"] = earlier
            }
            return object
        }
        guard kept, var object = described.first else { return ["kind": "snapshots", "snapshots": described] }
        object["kind"] = "snapshot-kept"
        return object
    }

    /// A `snapshot-restored` line: `name` (or `undone`, the commands undone), `targets`, `left`.
    package func restored(_ restored: OutputEvent.Restored) -> JSONObject {
        var object: JSONObject = ["kind": "snapshot-restored", "targets": restored.targets, "left": restored.left]
        object["name"] = restored.name
        if restored.name == nil { object["undone"] = restored.undone.map { ["number": $0.number, "line": $0.line] as JSONObject } }
        return object
    }
}
