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
