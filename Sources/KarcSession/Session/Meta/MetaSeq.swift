/// `:seq [N | N-M]`: the flow of a command (the last send's, or N's, or
/// N to M's) as a sequence diagram in the terminal.
enum MetaSeq: MetaCommand {
    static let name = "seq"
    static let arguments = "[N | N-M]"
    static let summary = "the last command's flow (or N's, or N to M's) as a sequence diagram"
    static let details = [
        ":seq          the last send's flow: a lifeline a target (and the shell), arrows in the order they happened",
        ":seq 3        command 3's (:history numbers)",
        ":seq 3-7      commands 3 to 7's, one after another",
        "Sends are arrows (─▶), replies and failures dashed arrows back (◀╌), events, changes and redirects",
        "marks (●) on their lifeline; late work is marked (late). It fits the terminal; text too long is cut with ….",
        ":export-diagram FILE.md writes the same as a Mermaid diagram.",
    ]

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        if let extra = call.arguments.dropFirst().first { return session.fail(":seq takes one argument", column: extra.column, in: call) }
        switch session.flow(call.arguments.first, for: ":seq") {
        case .failure(let problem): return session.fail(problem.message, column: problem.column, in: call)
        case .success(let flow):
            session.renderer.sequence(flow.diagram, commands: flow.commands)
            return .succeeded
        }
    }
}

/// `:export-diagram FILE.md [N | N-M]`: the flow (every command kept, or N's,
/// or N to M's) as a Mermaid `sequenceDiagram` in a fenced block.
enum MetaExportDiagram: MetaCommand {
    static let name = "export-diagram"
    static let arguments = "FILE.md [N | N-M]"
    static let summary = "write the session's flow (or N's, N to M's) as a Mermaid sequence diagram"
    static let details = [
        ":export-diagram flow.md        every command's flow this session kept, in a ```mermaid block GitHub draws",
        ":export-diagram flow.md 4      command 4's; :export-diagram flow.md 4-6 commands 4 to 6's",
        "The file is written whole or not at all (a temporary file, renamed).",
    ]
    /// A replay would write the file again.
    static let isReplayed = false

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0 ? MetaCompletions(candidates: Completer.paths(startingWith: words.last ?? ""), suffix: "") : nil
    }

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        guard let file = call.arguments.first else {
            return session.fail(":export-diagram needs a file name: :export-diagram flow.md [N | N-M]", in: call)
        }
        if let extra = call.arguments.dropFirst(2).first {
            return session.fail(":export-diagram takes a file and a range", column: extra.column, in: call)
        }
        let range = call.arguments.dropFirst().first
        let flow: ShellSession.Flow
        switch session.flow(range, for: ":export-diagram", defaultAll: true) {
        case .failure(let problem): return session.fail(problem.message, column: problem.column, in: call)
        case .success(let found): flow = found
        }
        do {
            try await session.host.write(MermaidDocument.text(flow.diagram, commands: flow.commands, cluster: session.cluster.name), to: file.value)
        } catch {
            return session.fail(error.message, column: file.column, in: call)
        }
        if !session.options.printing.quiet {
            let count = flow.commands.count
            session.renderer.log("wrote the flow of \(count) command\(count == 1 ? "" : "s") to \(file.value) (a Mermaid sequence diagram)")
        }
        return .succeeded
    }
}

/// A flow as a Markdown file: a heading line and the diagram in a fenced block.
enum MermaidDocument {
    static func text(_ diagram: SequenceDiagram, commands: [(seq: Int, name: String)], cluster: String) -> String {
        let which = commands.map { "#\($0.seq) \($0.name)" }.joined(separator: ", ")
        return "<!-- karc: the flow of \(which) in \(cluster) -->\n```mermaid\n" + diagram.mermaid + "```\n"
    }
}

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
