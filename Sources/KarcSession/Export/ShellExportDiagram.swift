import Foundation

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
        if let commands, ShellSession.commandRange(commands) == nil {
            sink.writeError("error: --commands expects a command's number or a range (3, 3-7; :history numbers), got '\(commands)'")
            return 1
        }
        guard let (_, transcript) = read(script, called: "script", sink: sink) else { return 1 }
        let cluster: any ShellCluster
        do {
            cluster = try await makeCluster()
        } catch {
            sink.writeError("error: cannot start the cluster: \(error)")
            return 1
        }
        let range: Located<String>?? = .some(commands.map { Located($0, column: 1) })
        let run = await TranscriptRun.run(transcript, path: script, cluster: cluster, timeout: timeout, diagram: range, interrupts: interrupts)
        await cluster.shutDown()
        if run.interrupted {
            sink.writeError("error: interrupted")
            return 1
        }
        let flow: ShellSession.Flow
        switch run.diagram {
        case .success(let found)?: flow = found
        case .failure(let problem)?:
            sink.writeError("error: \(script): \(problem.message)")
            return 1
        case nil: return 1
        }
        let document = MermaidDocument.text(flow.diagram, commands: flow.commands, cluster: cluster.name)
        guard let output else {
            sink.writeRaw(document)
            return 0
        }
        do {
            try WholeFile.write(document, to: output)
        } catch {
            sink.writeError("error: \(error.message)")
            return 1
        }
        sink.write("wrote \(output): the flow of \(flow.commands.count) command\(flow.commands.count == 1 ? "" : "s")")
        return 0
    }
}
