import Foundation
import KarcLanguage
import KarcSession

extension Shell {
    /// Runs `script` against a cluster (`makeCluster`) and writes it as a
    /// Swift Testing test that replays it through `ClusterTestStore`
    /// (TrellisTesting), to `output` or standard output. Returns the exit
    /// status: 0 when written, 1 when the script could not be read or run,
    /// or has a command the test cannot write.
    public static func exportTest(
        _ script: String, output: String? = nil, name: String? = nil, options: TestExportOptions, timeout: Duration = .seconds(5),
        cluster makeCluster: @Sendable () async throws -> any ShellCluster
    ) async -> Int32 {
        await exportTest(script, output: output, name: name, options: options, timeout: timeout, interrupts: .none, cluster: makeCluster)
    }

    /// The same, with Ctrl-C and signals reaching the run through `interrupts` (`karc export-test`).
    package static func exportTest(
        _ script: String, output: String?, name: String?, options: TestExportOptions, timeout: Duration, interrupts: ScriptInterrupts,
        cluster makeCluster: @Sendable () async throws -> any ShellCluster
    ) async -> Int32 {
        let sink = OutputSink()
        defer { sink.flush() }
        guard let factory = options.factory else {
            sink.writeError("error: export-test needs the test's cluster factory: --test-factory EXPR (a Swift expression of a Trellis Cluster)")
            return 1
        }
        guard
            let (run, _) = await runScript(
                script, timeout: timeout, interrupts: interrupts, sink: sink, keepingTestSteps: true, cluster: makeCluster)
        else { return 1 }
        let file = (script as NSString).lastPathComponent
        let export = TestExport(factory: factory, imports: options.imports, name: name ?? TestExport.functionName(for: file), source: file)
        let status = write(export, steps: run.steps, states: run.states, scriptName: run.scriptName, to: output, sink: sink)
        // A command that failed is not in the test (it sent nothing, or its send threw): each is said, with its error.
        // A script may fail on purpose (the tour shows its errors): the test is written all the same.
        guard !run.failures.isEmpty else { return status }
        let count = run.failures.count
        sink.writeError(
            "note: \(Names.counted(count, "command")) of \(file) failed and \(count == 1 ? "is" : "are") not in the test"
                + " (the test replays the others):")
        for failure in run.failures { sink.writeError("  " + failure.error) }
        return status
    }

    static func write(
        _ export: TestExport, steps: [TestStep], states: [(target: String, state: any Sendable)],
        scriptName: (String) -> String, to output: String?, sink: OutputSink
    ) -> Int32 {
        let source: (text: String, finalStates: Int)
        do {
            source = try export.source(steps: steps, states: states, scriptName: scriptName)
        } catch {
            sink.writeError("error: \(error.message)")
            return 1
        }
        return deliver(source.text, to: output, sink: sink) {
            let sends = steps.filter { if case .send = $0 { true } else { false } }.count
            return "\(Names.counted(sends, "command")), \(Names.counted(source.finalStates, "final state"))"
        }
    }

    /// Reads `script` and runs it against a cluster `makeCluster` starts,
    /// which it then shuts down: the run, and the cluster's name. Nil, the
    /// error written, when the script cannot be read, the cluster does not
    /// start, or Ctrl-C ended the run.
    static func runScript(
        _ script: String, timeout: Duration, interrupts: ScriptInterrupts, sink: OutputSink, keepingTestSteps: Bool = false,
        drawingFlow: Bool = false, flowCommands: Located<String>? = nil, cluster makeCluster: @Sendable () async throws -> any ShellCluster
    ) async -> (run: TranscriptRun, cluster: String)? {
        guard let (_, transcript) = read(script, called: "script", sink: sink) else { return nil }
        let cluster: any ShellCluster
        do {
            cluster = try await makeCluster()
        } catch {
            sink.writeError("error: cannot start the cluster: \(error)")
            return nil
        }
        let run = await TranscriptRun.run(
            transcript, path: script, cluster: cluster, timeout: timeout, keepingTestSteps: keepingTestSteps, drawingFlow: drawingFlow,
            flowCommands: flowCommands, interrupts: interrupts)
        await cluster.shutDown()
        if run.interrupted {
            sink.writeError("error: interrupted")
            return nil
        }
        return (run, cluster.name)
    }

    /// Writes `text` to standard output, or whole to the file `output` and
    /// says so (`wrote FILE: ` and what `summary` says); the exit status.
    static func deliver(_ text: String, to output: String?, sink: OutputSink, summary: () -> String) -> Int32 {
        guard let output else {
            sink.writeRaw(text)
            return 0
        }
        do {
            try WholeFile.write(text, to: output)
        } catch {
            sink.writeError("error: \(error.message)")
            return 1
        }
        sink.write("wrote \(output): \(summary())")
        return 0
    }
}
