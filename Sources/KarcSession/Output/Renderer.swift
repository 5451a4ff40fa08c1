import CustomDump
import Foundation

/// Writes what the shell has to say, readable or as JSON lines (`--json`,
/// schema in `docs/shell.md`). The same facts in both forms.
final class Renderer {
    enum Mode { case readable, json }

    let mode: Mode
    let style: Style
    let sink: OutputSink
    /// At the prompt: the width of the prompt, so an error can point at its column with a caret.
    var promptWidth: Int?

    init(mode: Mode, style: Style, sink: OutputSink) {
        self.mode = mode
        self.style = style
        self.sink = sink
    }

    func echo(_ line: String) {
        guard mode == .readable else { return }
        sink.write(style.dim("> ") + line)
    }

    func reply(target: String, _ value: any Sendable) {
        switch mode {
        case .readable:
            sink.write(style.reply("reply") + "  " + indented(ValueText.dump(value), by: 7))
        case .json:
            json(["kind": "reply", "target": target, "type": ValueText.typeName(value), "value": ValueText.json(value)])
        }
    }

    /// The outcome of a send the shell gave up on (timed out, interrupted), now that it came.
    func late(_ late: LateReplies.Reply) {
        switch late.outcome {
        case .replied(let value?) where !(value is Void):
            switch mode {
            case .readable:
                let head = style.reply("reply") + "  (late, \(late.command)) "
                sink.write(head + indented(ValueText.dump(value), by: 15 + late.command.count))
            case .json:
                json(["kind": "reply", "late": true, "command": late.command, "type": ValueText.typeName(value), "value": ValueText.json(value)])
            }
        case .replied:
            log("\(late.command) finished late, with no reply", kind: "log")
        case .threw(let error):
            log("\(late.command) failed late: \(error)", kind: "error")
        case .timedOut, .interrupted:
            break
        }
    }

    func record(_ record: ShellRecord) {
        switch record {
        case .event(let source, let event):
            switch mode {
            case .readable:
                sink.write(style.event("event") + "  \(source): " + indented(ValueText.dump(event), by: 9 + source.count))
            case .json:
                json(["kind": "event", "source": source, "type": ValueText.typeName(event), "value": ValueText.json(event)])
            }
        case .stateChanged(let target, let old, let new):
            state(target: target, old: old, new: new)
        case .redirected(let by, let action, let to):
            let replacement = to.map(ValueText.dump).joined(separator: ", ")
            switch mode {
            case .readable:
                sink.write(style.error("redirected") + "  \(ValueText.dump(action)) by \(by)" + (to.isEmpty ? " (dropped)" : " → \(replacement)"))
            case .json:
                json([
                    "kind": "redirect", "by": by, "type": ValueText.typeName(action), "value": ValueText.json(action),
                    "to": to.map { ["type": ValueText.typeName($0), "value": ValueText.json($0)] },
                ])
            }
        case .failed(let error):
            log("failed: \(error)", kind: "error")
        case .lost(let count):
            log("\(count) records lost: the shell fell behind the cluster", kind: "log")
        }
    }

    /// How changes of state are printed (`:diff on|off|summary`).
    var diffMode = DiffMode.full {
        didSet { if diffMode != .full { printed = [:] } }
    }

    func state(target: String, old: any Sendable, new: any Sendable) {
        switch diffMode {
        case .off: return
        case .summary: return summary(target: target, old: old, new: new)
        case .full: break
        }
        // One memory of the arrays compared, for the diff and then the JSON tree.
        let prefixes = ComparedPrefixes()
        guard let difference = StateDiff.text(old, new, prefixes: prefixes) else { return }  // changed and changed back
        switch mode {
        case .readable:
            sink.write(style.state("state") + "  \(target):")
            for line in difference.split(separator: "\n", omittingEmptySubsequences: false) {
                switch line.first {
                case "+": sink.write("  " + style.added(String(line)))
                case "-": sink.write("  " + style.removed(String(line)))
                default: sink.write("  " + line)
                }
            }
        case .json:
            // The old state is almost always the new state this printed last: its tree is reused.
            let known = printed[target].flatMap { Unchanged.check($0.state, old) ? $0.tree : nil }
            let oldTree = known ?? ValueText.tree(old, reusing: nil)
            let newTree = ValueText.tree(new, reusing: oldTree, prefixes: prefixes)
            printed[target] = (new, newTree)
            var object: [String: Any] = [
                "kind": "state", "target": target, "type": ValueText.typeName(new),
                "patch": JSONPatch.patch(from: oldTree, to: newTree), "diff": difference,
            ]
            if jsonStates {
                object["old"] = RawJSON(text: oldTree.text)
                object["new"] = RawJSON(text: newTree.text)
            }
            json(object)
        }
    }

    /// `--json-states`: `state` lines carry the whole old and new states beside the patch.
    var jsonStates = false

    /// `state  articles: 1 changed, 2,001 unchanged`: no dump, a comparison a part.
    private func summary(target: String, old: any Sendable, new: any Sendable) {
        let counts = StateSummary.count(old, new)
        guard counts.changed > 0 else { return }  // changed and changed back
        switch mode {
        case .readable:
            sink.write(style.state("state") + "  \(target): " + StateSummary.describe(counts))
        case .json:
            json(["kind": "state", "target": target, "type": ValueText.typeName(new), "changed": counts.changed, "unchanged": counts.unchanged])
        }
    }

    /// In JSON mode, the last state printed for each target, with its JSON
    /// tree: what the next patch starts from and shares unchanged parts with.
    private var printed: [String: (state: any Sendable, tree: JSONText.Node)] = [:]

    /// The current state of a target (`:state`).
    func snapshot(target: String, _ state: Any, path: String? = nil, of owner: String? = nil) {
        switch mode {
        case .readable:
            sink.write(style.state("state") + "  \(target): " + indented(ValueText.dump(state), by: 9 + DisplayWidth.of(target)))
        case .json:
            var object: [String: Any] = [
                "kind": "snapshot", "target": owner ?? target, "type": ValueText.typeName(state), "value": ValueText.json(state),
            ]
            object["path"] = path
            json(object)
        }
    }

    /// A failed command: where and what.
    /// At the prompt (`text` is the line typed there) the caret goes under
    /// the column, counted in terminal columns: a wide character takes two.
    /// How a script is named in locations: as given, or (`karc check`) relative to the checked script.
    var scriptName: @Sendable (String) -> String = { $0 }

    func error(_ message: String, script: String?, line: Int?, column: Int?, text: String? = nil) {
        let script = script.map(scriptName)
        switch mode {
        case .readable:
            if script == nil, line == nil, let promptWidth, let column {
                let before = text.map { DisplayWidth.of($0.prefix(max(0, column - 1))) } ?? column - 1
                sink.write(String(repeating: " ", count: max(0, promptWidth + before)) + style.error("^"))
                sink.writeError(style.error("error") + ": " + message)
                return
            }
            // `script:line:column: error: message`, as compilers write it, so editors can jump there.
            var location = ""
            if let script { location += "\(script):" }
            if let line { location += "\(line):" }
            if let column { location += "\(column):" }
            sink.writeError((location.isEmpty ? "" : location + " ") + style.error("error") + ": " + message)
        case .json:
            var object: [String: Any] = ["kind": "error", "message": message]
            object["script"] = script
            object["line"] = line
            object["column"] = column
            json(object)
        }
    }

    /// Something a user should know that is not a failure (a send that has not answered yet).
    func notice(_ message: String, command: String, script: String?, line: Int?) {
        let script = script.map(scriptName)
        switch mode {
        case .readable:
            var location = ""
            if let script { location += "\(script):" }
            if let line { location += "\(line):" }
            sink.writeError((location.isEmpty ? "" : location + " ") + style.dim("note") + ": " + message)
        case .json:
            var object: [String: Any] = ["kind": "timeout", "command": command, "message": message]
            object["script"] = script
            object["line"] = line
            json(object)
        }
    }

    /// Something the session tells about itself (it dropped its oldest
    /// commands): on standard error, or a `note` line with `--json`.
    func note(_ message: String) {
        switch mode {
        case .readable: sink.writeError(style.dim("note") + ": " + message)
        case .json: json(["kind": "note", "message": message])
        }
    }

    /// Shell output that is not a cluster fact (help, state dumps, notices).
    func log(_ text: String, kind: String = "log") {
        switch mode {
        case .readable: sink.write(kind == "error" ? style.error(text) : text)
        case .json: json(["kind": kind, "message": text])
        }
    }

    func timing(_ duration: Duration) {
        let milliseconds = Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
        let text = String(format: "%.3f ms", milliseconds)
        switch mode {
        case .readable: sink.write(style.dim("time   \(text)"))
        case .json: json(["kind": "timing", "milliseconds": milliseconds])
        }
    }

    private func json(_ object: [String: Any]) {
        sink.write(JSONLine.write(object))
    }

    private func indented(_ text: String, by width: Int) -> String {
        guard text.contains("\n") else { return text }
        let pad = String(repeating: " ", count: width)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { $0.offset == 0 ? String($0.element) : pad + $0.element }.joined(separator: "\n")
    }
}
