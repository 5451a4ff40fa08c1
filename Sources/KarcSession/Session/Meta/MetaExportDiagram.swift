import KarcOutput
import KarcTrace

/// `:export-diagram [--force] FILE.md [N | N-M]`: the flow (every command
/// kept, or N's, or N to M's) as a Mermaid `sequenceDiagram` in a fenced
/// block. A file there that this session did not write is not replaced
/// without `--force`, as with `:save`.
enum MetaExportDiagram: MetaCommand {
    static let name = "export-diagram"
    static let arguments = "FILE.md [N | N-M]"  // and --force (details): the synopsis fits :help's column
    static let summary = "write the session's flow (or N's, N to M's) as a Mermaid sequence diagram"
    static let details = [
        ":export-diagram flow.md        every command's flow this session kept, in a ```mermaid block GitHub draws",
        ":export-diagram flow.md 4      command 4's; :export-diagram flow.md 4-6 commands 4 to 6's",
        ":export-diagram --force flow.md  replace a file this session did not write (else it is kept, and nothing is written)",
        "The file is written whole or not at all (a temporary file, renamed).",
    ]
    /// A replay would write the file again.
    static let isReplayed = false

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        .file(at: position, of: words)
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        let force = call.arguments.contains { $0.value == "--force" }
        let arguments = call.arguments.filter { $0.value != "--force" }
        guard let file = arguments.first else {
            return context.fail(":export-diagram needs a file name: :export-diagram flow.md [N | N-M]", in: call)
        }
        if let extra = arguments.dropFirst(2).first {
            return context.fail(":export-diagram takes a file and a range", column: extra.column, in: call)
        }
        let range = arguments.dropFirst().first
        let flow: FlowDiagram
        switch context.flow(range, for: ":export-diagram", defaultAll: true) {
        case .failure(let problem): return context.fail(problem.message, column: problem.column, in: call)
        case .success(let found): flow = found
        }
        let text = MermaidDocument.text(flow.diagram, commands: flow.commands, cluster: context.cluster.name)
        let replace = ":export-diagram --force " + ([file.value] + (range.map { [$0.value] } ?? [])).joined(separator: " ")
        guard await context.write(text, to: file, force: force, replace: replace, in: call) else { return .failed }
        if !context.options.printing.quiet {
            let count = flow.commands.count
            context.renderer.log("wrote the flow of \(count) command\(count == 1 ? "" : "s") to \(file.value) (a Mermaid sequence diagram)")
        }
        return .succeeded
    }
}

/// A flow as a Markdown file: a heading line and the diagram in a fenced block.
package enum MermaidDocument {
    package static func text(_ diagram: SequenceDiagram, commands: [(seq: Int, name: String)], cluster: String) -> String {
        let which = commands.map { "#\($0.seq) \($0.name)" }.joined(separator: ", ")
        return "<!-- karc: the flow of \(which) in \(cluster) -->\n```mermaid\n" + diagram.mermaid + "```\n"
    }
}
