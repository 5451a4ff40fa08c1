@_spi(KarcInternal) import KarcAsync
import KarcHistory
import KarcLanguage
import KarcOutput
import KarcRendering
import KarcTrace

extension ShellSession {
    /// The inspector's questions (``SessionInbox``), if it was started.
    var inbox: SessionInbox? { waits.runtime.inspector?.inbox }

    /// Answers every question waiting; false when none did (nothing was printed).
    package func answerQuestions() async -> Bool {
        guard let inbox, inbox.hasQuestions else { return false }
        for item in inbox.take() { item.answer.finish(await answer(item.question)) }
        return true
    }

    /// The JSON object that answers `question`.
    package func answer(_ question: SessionQuestion) async -> String {
        if inbox?.isReadOnly == true, let refusal = Self.readOnlyRefusal(of: question) { return refusal }
        switch question {
        case .run(let line): return await run(fromPage: line)
        case .complete(let line): return await completion(of: line)
        case .overview: return await overview()
        case .state(let target, let path, let after, let offset, let limit):
            return await statePart(of: target, at: path, after: after, offset: offset, limit: limit)
        case .search(let target, let text, let after): return await search(target, for: text, after: after)
        case .trace(let seq): return trace(of: seq)
        case .diagram(let seq): return diagram(of: seq)
        case .back(let seq): return await back(to: seq)
        }
    }

    /// The meta commands a read-only page may run: they look, and change nothing in the app.
    static let lookingCommands: Set<String> = ["state", "watch", "unwatch", "blame", "trace", "seq", "history", "help", "events", "snapshots"]

    /// Why a read-only page may not ask `question` (nil: it may).
    private static func readOnlyRefusal(of question: SessionQuestion) -> String? {
        let refusal = SessionAnswer.refusal(
            "this inspector is read-only (the app serves --read-only): it runs no send and changes no state;"
                + " :state, :watch, :blame, :trace, :seq and :history work")
        switch question {
        case .back: return refusal
        case .run(let line):
            guard case .meta(let name, _)? = try? LineParser.parse(line.trimmingCharacters(in: .whitespaces)),
                lookingCommands.contains(name.value)
            else { return refusal }
            return nil
        default: return nil
        }
    }

    /// A line typed in the page: run as one typed here, said in the terminal first.
    private func run(fromPage line: String) async -> String {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return SessionAnswer.refusal("nothing to run: type a command, like \(facts.example)") }
        guard !text.contains(where: \.isNewline) else { return SessionAnswer.refusal("one line at a time: the page runs one command a line") }
        if case .meta(let name, _)? = try? LineParser.parse(text), ["quit", "q", "exit"].contains(name.value) {
            return SessionAnswer.refusal("the page cannot end the session: Ctrl-D or :quit in its terminal does")
        }
        return JSONLine.write(await execute(fromPage: text))
    }

    /// Runs `line` from the page, said in the terminal first: its number and outcome.
    private func execute(fromPage line: String) async -> JSONObject {
        renderer.log("from the inspector: \(line)")
        io.runsPageLine = true
        defer { io.runsPageLine = false }
        let outcome = await execute(line, at: Location(script: "inspector", line: nil))
        return ["seq": log.history.total, "outcome": HistoryEntry.name(outcome)]
    }

    private func completion(of line: String) async -> String {
        var states: [String: any Sendable] = [:]
        for (target, state) in await targetStates() { states[target] = state }
        let found = states
        let words = log.words
        let completer = Completer(
            catalog: cluster.catalog, events: { words.events }, snapshots: { words.snapshots },
            statePaths: { target, typed in found[target].map { StatePath.completions(in: $0, typed: typed) } ?? [] })
        let completion = completer.complete(String(line.prefix(1_024)))
        return JSONLine.write(["insert": completion.insert, "candidates": Array(completion.candidates.prefix(200))])
    }

    private func overview() async -> String {
        let summary = CatalogSummary(cluster.catalog)
        var targets: [JSONObject] = []
        for target in summary.targets {
            let state = await cluster.state(of: target.name)
            var object: JSONObject = [
                "name": target.name, "kind": target.kind,
                "commands": target.commands.map(\.name),
                "restorable": capabilities.restoring?.restorableStateType(of: target.name) != nil,
            ]
            object["type"] = state.map { StateTree.part($0).type }
            targets.append(object)
        }
        let snapshots = states.snapshots.named.map { kept -> JSONObject in
            var object: JSONObject = ["name": kept.name]
            object["after"] = kept.after
            return object
        }
        let watches = states.watches.all.map(\.text)
        return JSONLine.write([
            "cluster": cluster.name, "targets": targets, "snapshots": snapshots, "watches": watches, "last": log.history.total,
            "readOnly": inbox?.isReadOnly == true, "example": facts.example,
            "undo": states.snapshots.undoPoints.map(\.command),
        ])
    }

    /// `target`'s state now, or as it was after command `after` (its state
    /// before the first command since that changed it, from the undo points).
    private func state(of target: String, after: Int?) async -> Result<Any, AnswerProblem> {
        guard cluster.catalog.target(named: target)?.name == target else {
            let names = cluster.catalog.targets.map(\.name)
            return .failure(
                AnswerProblem("no target '\(target)'" + Names.didYouMean(target, among: names) + " Targets: \(names.joined(separator: ", "))"))
        }
        guard let now = await cluster.state(of: target) else { return .failure(AnswerProblem("\(target) shows no state")) }
        guard let after else { return .success(now) }
        guard after >= 0, after <= log.history.total else {
            return .failure(AnswerProblem("there is no command \(after) yet: the last is \(log.history.total)"))
        }
        // The state before the first later command that changed the target, kept as its undo point, is the state
        // after `after` unless something changed the target between the two (a timer) or the point is gone (undone).
        let point = states.snapshots.undoPoints.first { $0.command > after && $0.before[target] != nil }
        let until = point?.command ?? Int.max
        let changes = states.changes
        let changedBetween = changes.entries.contains { $0.target == target && $0.at > after && $0.at < until }
        guard changes.droppedBefore <= after + 1, !changedBetween else {
            return .failure(
                AnswerProblem(
                    "\(target)'s state after command \(after) was not kept: it was undone since, or changed outside a command,"
                        + " or is older than the last \(Snapshots.undoDepth) commands that changed something"))
        }
        return .success(point?.before[target] ?? now)
    }

    private func statePart(of target: String, at path: String, after: Int?, offset: Int, limit: Int) async -> String {
        var steps: [StatePath.Step] = []
        if !path.isEmpty {
            switch StatePath.parse(path) {
            case .success(let parsed): steps = parsed
            case .failure(let problem): return SessionAnswer.refusal("in the path '\(path)' at \(problem.offset): \(problem.message)")
            }
        }
        let whole: Any
        switch await state(of: target, after: after) {
        case .success(let found): whole = found
        case .failure(let problem): return SessionAnswer.refusal(problem.message)
        }
        guard let value = StatePath.part(of: whole, at: steps) else {
            return SessionAnswer.refusal("\(target) has no part \(path)" + (after.map { " after command \($0)" } ?? ""))
        }
        let children = StateTree.children(of: value, offset: offset, limit: min(max(limit, 0), 1_000)).map { child -> JSONObject in
            let childPath = steps + [child.step]
            var object = Self.json(StateTree.part(child.value))
            object["step"] = StatePath.text([child.step])
            object["path"] = StatePath.text(childPath)
            return object
        }
        var answer: JSONObject = ["target": target, "path": path, "part": Self.json(StateTree.part(value)), "offset": offset, "children": children]
        answer["after"] = after
        if let after {
            let changed = states.changes.entries.filter { $0.command == after && $0.target == target }.flatMap(\.changes)
            answer["changed"] = changed.map { StatePath.text($0.path) }
        }
        return JSONLine.write(answer)
    }

    private static func json(_ part: StateTree.Part) -> JSONObject {
        var object: JSONObject = ["kind": part.kind.rawValue, "type": part.type, "count": part.count]
        object["text"] = part.text
        return object
    }

    private func search(_ target: String, for text: String, after: Int?) async -> String {
        switch await state(of: target, after: after) {
        case .failure(let problem): return SessionAnswer.refusal(problem.message)
        case .success(let value):
            let found = StateTree.search(value, for: String(text.prefix(200)))
            return JSONLine.write(["target": target, "paths": found.paths, "complete": found.complete])
        }
    }

    private func trace(of seq: Int) -> String {
        guard let recording = traces.recording(ofCommand: seq) else { return SessionAnswer.refusal(Self.noFlow(seq, traced: traces.tracedCommands)) }
        let lines = TraceTree(recording, label: names.label).lines.map { line -> JSONObject in
            var object: JSONObject = ["depth": line.depth, "kind": line.kind.rawValue, "text": line.text, "late": line.late]
            object["milliseconds"] = line.duration.map { Milliseconds.value($0) }
            return object
        }
        var answer: JSONObject = ["seq": seq, "lines": lines]
        answer["name"] = recording.commandName
        return JSONLine.write(answer)
    }

    private func diagram(of seq: Int) -> String {
        guard let recording = traces.recording(ofCommand: seq) else { return SessionAnswer.refusal(Self.noFlow(seq, traced: traces.tracedCommands)) }
        let diagram = SequenceDiagram([recording], label: names.label)
        let messages = diagram.messages.map { message -> JSONObject in
            ["from": message.from, "to": message.to, "text": message.text, "style": message.style.rawValue, "late": message.late] as JSONObject
        }
        return JSONLine.write([
            "seq": seq, "participants": diagram.participants, "messages": messages,
            "mermaid": MermaidDocument.text(diagram, commands: [(seq, recording.commandName ?? "")], cluster: cluster.name),
        ])
    }

    private static func noFlow(_ seq: Int, traced: [Int]) -> String {
        "command \(seq) has no trace (only sends have one)" + (traced.isEmpty ? "" : "; commands with one: " + MetaTrace.ranges(traced))
    }

    /// Back to the states after command `seq`: the `:undo` of every command since that changed something, run as a command.
    /// Its answer names the targets that changed since and stay as they are (as `:undo` prints them).
    private func back(to seq: Int) async -> String {
        guard seq >= 0, seq <= log.history.total else {
            return SessionAnswer.refusal("there is no command \(seq) yet: the last is \(log.history.total)")
        }
        guard let restoring = capabilities.restoring else {
            return SessionAnswer.refusal("cannot go back: " + ShellClusterCapabilities.cannotRestore)
        }
        let snapshots = states.snapshots
        guard seq >= snapshots.forgottenThrough else {
            return SessionAnswer.refusal(
                "cannot go back to after command \(seq): the states before the last \(Snapshots.undoDepth) commands that changed one are not kept;"
                    + " the earliest to go back to is \(snapshots.forgottenThrough)")
        }
        let changed = snapshots.undoPoints.filter { $0.command > seq }
        let left = Set(changed.flatMap(\.before.keys)).filter { restoring.restorableStateType(of: $0) == nil }.sorted()
        // As `:undo N` counts: the newest undo points that put back a state that can be restored, down to command `seq`.
        let since = changed.filter { point in point.before.keys.contains { restoring.restorableStateType(of: $0) != nil } }
        guard !since.isEmpty else {
            let why = left.isEmpty ? "" : "; " + left.joined(separator: ", ") + " changed, and cannot be restored (not Restorable)"
            return SessionAnswer.refusal("the states are as they were after command \(seq): nothing since changed one that can be restored" + why)
        }
        var answer = await execute(fromPage: ":undo \(since.count)")
        answer["left"] = left
        return JSONLine.write(answer)
    }
}

/// Why a question cannot be answered.
struct AnswerProblem: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
