extension ShellSession {
    /// The diagram of some commands' flows, and which commands.
    struct Flow {
        let diagram: SequenceDiagram
        let commands: [(seq: Int, name: String)]
    }

    struct FlowProblem: Error {
        let message: String
        let column: Int?
    }

    /// The flow `argument` names (`N`, `N-M`); without one, the last send's
    /// (or, `defaultAll`, every command's kept).
    func flow(_ argument: Located<String>?, for command: String, defaultAll: Bool = false) -> Result<Flow, FlowProblem> {
        let traced = traces.tracedCommands
        guard !traced.isEmpty else {
            return .failure(FlowProblem(message: "no command has a flow yet: \(command) draws the sends of this session", column: argument?.column))
        }
        var wanted: [Int]
        if let argument {
            guard let range = Self.commandRange(argument.value) else {
                return .failure(
                    FlowProblem(
                        message: "expected a command's number or a range (3, 3-7; :history numbers), got '\(argument.value)'", column: argument.column
                    ))
            }
            wanted = traced.filter(range.contains)
            guard !wanted.isEmpty else {
                return .failure(
                    FlowProblem(
                        message: "no command in \(argument.value) has a flow (only sends have one); commands with one: \(MetaTrace.ranges(traced))",
                        column: argument.column))
            }
        } else {
            wanted = defaultAll ? traced : [traced[traced.count - 1]]
        }
        let recordings = wanted.compactMap { traces.recording(ofCommand: $0) }
        return .success(
            Flow(
                diagram: SequenceDiagram(recordings, label: names.label),
                commands: recordings.compactMap { r in r.command.map { ($0, r.commandName ?? "") } }))
    }

    /// `3` → 3...3, `3-7` → 3...7; nil for anything else.
    static func commandRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let first = Int(parts[0]), first > 0 else { return nil }
        guard parts.count == 2 else { return first...first }
        guard let last = Int(parts[1]), last >= first else { return nil }
        return first...last
    }
}
