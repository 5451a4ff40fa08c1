import Foundation
import KarcSession

extension Shell {
    /// Runs `script` against a cluster (`makeCluster`) and writes the flow of
    /// its commands (`commands`: `N` or `N-M`, by their `:history` numbers;
    /// nil: all) as a Mermaid sequence diagram in a Markdown file, to `output`
    /// or standard output. Returns the exit status: 0 when written, 1 when the
    /// script could not be read or run, or drew nothing.
    package static func exportDiagram(
        _ script: String, output: String?, commands: String?, timeout: Duration, interrupts: ScriptInterrupts,
        cluster makeCluster: @Sendable () async throws -> any ShellCluster
    ) async -> Int32 {
        let sink = OutputSink()
        defer { sink.flush() }
        if let commands, case .failure(let problem) = ShellSession.commandRange(commands) {
            sink.writeError("error: --commands: \(problem.message)")
            return 1
        }
        guard
            let (run, cluster) = await runScript(
                script, timeout: timeout, interrupts: interrupts, sink: sink, drawingFlow: true,
                flowCommands: commands.map { Located($0, column: 1) }, cluster: makeCluster)
        else { return 1 }
        let flow: FlowDiagram
        switch run.diagram {
        case .success(let found)?: flow = found
        case .failure(let problem)?:
            sink.writeError("error: \(script): \(problem.message)")
            return 1
        case nil: return 1
        }
        let document = MermaidDocument.text(flow.diagram, commands: flow.commands, cluster: cluster)
        return deliver(document, to: output, sink: sink) { "the flow of \(flow.commands.count) command\(flow.commands.count == 1 ? "" : "s")" }
    }
}
