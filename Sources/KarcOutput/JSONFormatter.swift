import KarcAsync
import KarcRendering
import KarcTrace

/// Output for programs: one JSON object a line (`--json`, schema in
/// docs/shell.md). A change of state is a JSON patch against the last state
/// printed for its target, whose tree the new one shares unchanged parts with.
package struct JSONFormatter: OutputFormatter {
    /// The JSON tree of the last state printed for each target: what the
    /// next patch starts from and shares unchanged parts with. The tree
    /// keeps no long array's storage (``JSONText/Node/keep(_:)``).
    private var printed: [String: JSONText.Node] = [:]

    package init() {}

    package mutating func write(_ event: OutputEvent, in context: OutputContext, to sink: OutputSink) {
        switch event {
        case .begin, .echo:
            return
        case .reply(let target, let value):
            json(["kind": "reply", "target": target, "type": ValueText.typeName(value), "value": ValueText.json(value)], in: context, to: sink)
        case .lateReply(let command, let value):
            var object: JSONObject = [
                "kind": "reply", "late": true, "command": command.name, "text": command.text, "seq": command.seq,
                "type": ValueText.typeName(value), "value": ValueText.json(value),
            ]
            object["script"] = command.script
            object["line"] = command.line
            json(object, in: context, to: sink)
        case .event(let source, let value, let late, let by):
            // A late event carries its command's `seq` (``Renderer/printing(for:_:)``), as a late reply does.
            var object: JSONObject = ["kind": "event", "source": source, "type": ValueText.typeName(value), "value": ValueText.json(value)]
            if late != nil { object["late"] = true }
            if let by { object["by"] = by }
            json(object, in: context, to: sink)
        case .redirect(let by, let action, let to):
            json(
                [
                    "kind": "redirect", "by": by, "type": ValueText.typeName(action), "value": ValueText.json(action),
                    "to": to.map { ["type": ValueText.typeName($0), "value": ValueText.json($0)] as JSONObject },
                ], in: context, to: sink)
        case .stateChange(let change):
            sink.write(stateLine(change, in: context))
        case .stateSummary(let target, let state, let counts, let from):
            var object: JSONObject = [
                "kind": "state", "target": target, "type": ValueText.typeName(state), "changed": counts.changed, "unchanged": counts.unchanged,
            ]
            object["by"] = from
            json(object, in: context, to: sink)
        case .snapshot(let snapshot):
            var object: JSONObject = [
                "kind": "snapshot", "target": snapshot.owner ?? snapshot.heading, "type": ValueText.typeName(snapshot.value),
                "value": ValueText.json(snapshot.value),
            ]
            object["path"] = snapshot.path
            json(object, in: context, to: sink)
        case .error(let message, let location):
            json(Self.error(message, at: location), in: context, to: sink)
        case .failedReply(let message, let location, let reply):
            // The typed error too: `value` is `{"failure": …}`, as a reply's would be.
            var object = Self.error(message, at: location)
            object["type"] = ValueText.typeName(reply)
            object["value"] = ValueText.json(reply)
            json(object, in: context, to: sink)
        case .notice(let message, let command, let location):
            var object: JSONObject = ["kind": "timeout", "command": command, "message": message]
            object["script"] = location.script
            object["line"] = location.line
            json(object, in: context, to: sink)
        case .note(let message):
            json(["kind": "note", "message": message], in: context, to: sink)
        case .message(let text):
            json(["kind": "log", "message": text], in: context, to: sink)
        case .problem(let text):
            json(["kind": "error", "message": text], in: context, to: sink)
        case .timing(let duration):
            json(["kind": "timing", "milliseconds": Milliseconds.value(duration)], in: context, to: sink)
        case .unchanged:
            return  // the `done` line ends the command either way
        case .done(let seq, let outcome):
            // One a command: written field by field, as the `state` and `trace` lines are.
            var line = SortedJSONFields(capacity: 48)
            line.add("kind", "done")
            line.add("outcome", outcome)
            line.add("seq", seq)
            sink.write(line.finish())
        case .setting(let setting):
            var object: JSONObject = ["kind": "setting", "name": setting.name, "value": setting.value]
            if !setting.types.isEmpty { object["types"] = setting.types }
            json(object, in: context, to: sink)
        case .help(let page):
            json(page.json, in: context, to: sink)
        case .trace(let output):
            // One after every command with `--trace`: written field by field, as `done` is.
            sink.write(Self.traceLine(output, seq: context.seq))
        case .sequence(let diagram, let commands):
            json(
                [
                    "kind": "sequence", "commands": commands.map { ["seq": $0.seq, "command": $0.name] as JSONObject },
                    "participants": diagram.participants,
                    "messages": diagram.messages.map { message -> JSONObject in
                        [
                            "from": diagram.participants[message.from], "to": diagram.participants[message.to], "style": message.style.rawValue,
                            "text": message.text, "late": message.late,
                        ]
                    },
                ], in: context, to: sink)
        case .historyEntry(let number, let entry, let full):
            json(history(number, entry, full: full), in: context, to: sink)
        case .watch(let watch, let change):
            var object = part(change)
            object["kind"] = "watch"
            object["watch"] = watch
            json(object, in: context, to: sink)
        case .watches(let paths):
            json(["kind": "watches", "paths": paths], in: context, to: sink)
        case .blame(let blame):
            var object: JSONObject = ["kind": "blame", "path": blame.path, "changes": blame.changes.map(part), "more": blame.more]
            object["droppedBefore"] = blame.droppedBefore
            json(object, in: context, to: sink)
        case .snapshots(let snapshots, let kept):
            json(self.snapshots(snapshots, kept: kept), in: context, to: sink)
        case .restored(let restored):
            json(self.restored(restored), in: context, to: sink)
        case .reset(let reset):
            json(["kind": "reset", "changed": reset.changed, "left": reset.left], in: context, to: sink)
        }
    }

    package mutating func forget() {
        printed = [:]
    }

    /// A `state` line, one for every change printed: written field by field (``SortedJSONFields``).
    private mutating func stateLine(_ change: OutputEvent.StateChange, in context: OutputContext) -> String {
        // The old state is almost always the one this printed last, whose tree is reused; else it is a
        // value to encode. After `:diff` was off, no tree is left of the last state printed.
        let last = change.fromLastPrinted ? printed[change.target] : nil
        let oldTree = last ?? (SnapshotNode.in(change.old) != nil ? nil : ValueText.tree(change.old, reusing: nil))
        let newTree = ValueText.tree(change.new, reusing: oldTree, prefixes: change.prefixes)
        printed[change.target] = newTree
        var line = SortedJSONFields(capacity: 256 + change.difference.utf8.count)
        line.add("by", change.from)
        line.add("diff", change.difference)
        line.add("kind", "state")
        if context.jsonStates {
            line.add("new", newTree)
            line.add("old", oldTree)
        }
        line.add("parent", context.link?.parent.map(TraceIDs.text))
        line.add("patch", oldTree.map { JSONPatch.patch(from: $0, to: newTree) } ?? JSONPatch.replacingAll(with: newTree))
        line.add("seq", context.seq)
        line.add("span", context.link.map { TraceIDs.text($0.span) })
        line.add("target", change.target)
        line.add("trace", context.link.map { TraceIDs.text($0.trace) })
        line.add("type", ValueText.typeName(change.new))
        return line.finish()
    }

    private static func error(_ message: String, at location: OutputEvent.SourceLocation) -> JSONObject {
        var object: JSONObject = ["kind": "error", "message": message]
        object["script"] = location.script
        object["line"] = location.line
        object["column"] = location.column
        return object
    }

    /// Every line printed while a command line runs carries its number (`seq`), unless it names its own.
    private func json(_ object: JSONObject, in context: OutputContext, to sink: OutputSink) {
        var object = object
        object.addIfAbsent("seq", context.seq)
        // A line about what the cluster did says which span did it (a trace line names its own).
        if let link = context.link, object["trace"] == nil {
            object["trace"] = TraceIDs.text(link.trace)
            object["span"] = TraceIDs.text(link.span)
            object["parent"] = link.parent.map(TraceIDs.text)
        }
        sink.write(JSONLine.write(object))
    }
}
