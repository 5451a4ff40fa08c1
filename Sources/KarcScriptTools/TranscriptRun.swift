import Foundation
import KarcSession

/// Runs a transcript's commands against a cluster, as a script with
/// `--keep-going` would, and keeps what each printed (standard output and
/// errors, in order, without colour): the transcript as it is today.
struct TranscriptRun {
    /// Lines printed by each command, in the transcript's order.
    var outputs: [[String]] = []
    /// The commands that failed: their line in the script and the error they printed.
    var failures: [(line: Int, error: String)] = []
    /// Ctrl-C ended the run: what was printed is not the whole transcript.
    var interrupted = false
    /// When asked for: each send and event, for a generated test.
    var steps: [TestStep] = []
    /// When asked for: each target's state at the end.
    var states: [(target: String, state: any Sendable)] = []
    /// How the run named scripts (from the transcript's own directory).
    var scriptName: @Sendable (String) -> String = { $0 }
    /// When asked for (`drawingFlow`): the flow of the commands `flowCommands` names (nil: all), or why there is none.
    var diagram: Result<FlowDiagram, FlowProblem>?

    /// Runs `transcript` (read from `path`) in a session of its own on `cluster`.
    /// `testExport`: how an `:export-test` in it writes its test, as the shell's own would.
    static func run(
        _ transcript: Transcript, path: String, cluster: any ShellCluster, timeout: Duration, testExport: TestExportOptions = TestExportOptions(),
        keepingTestSteps: Bool = false, drawingFlow: Bool = false, flowCommands: Located<String>? = nil,
        interrupts: ScriptInterrupts = .none, runtime: ShellRuntime = ShellRuntime()
    ) async -> TranscriptRun {
        await withTaskExecutorPreference(runtime.executor) {
            await runHere(
                transcript, path: path, cluster: cluster, timeout: timeout, testExport: testExport, keepingTestSteps: keepingTestSteps,
                drawingFlow: drawingFlow, flowCommands: flowCommands, interrupts: interrupts, runtime: runtime)
        }
    }

    private static func runHere(
        _ transcript: Transcript, path: String, cluster: any ShellCluster, timeout: Duration, testExport: TestExportOptions,
        keepingTestSteps: Bool, drawingFlow: Bool, flowCommands: Located<String>?, interrupts: ScriptInterrupts, runtime: ShellRuntime
    ) async -> TranscriptRun {
        var options = ShellOptions()
        options.testExport = testExport
        options.keepGoing = true
        options.printing.quiet = true
        options.printing.color = false
        options.timeout = timeout
        // `export-test SCRIPT` writes the whole script, however long.
        if keepingTestSteps { options.history.limit = .max }
        let sink = OutputSink(capturing: (), clock: runtime.clock)
        let session = ShellSession(cluster: cluster, options: options, sink: sink, runtime: runtime)
        // An `:export-test` in a transcript writes what the shell's would; `export-test SCRIPT` asserts the states in between too.
        session.keepsTestStates = keepingTestSteps
        // A script is named as it sources its neighbours: from its own directory,
        // so the transcript reads the same wherever `karc check` runs.
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = directory.isEmpty ? "" : directory + "/"
        session.scriptName = { name in name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name }
        interrupts.forward(session.interrupter)
        _ = await cluster.settled(timeout: timeout)

        var run = TranscriptRun()
        var stopped = false
        var printed = 0
        for command in transcript.commands {
            guard !stopped else {
                run.outputs.append([])
                continue
            }
            // A check names the command's line in the transcript as it will read with this output
            // under each command, so a transcript that matches stays matching; a test names
            // the line of the script as it is.
            let line = keepingTestSteps ? command.line : command.linesBefore + printed + 1
            let outcome = await session.execute(command.text, at: .init(script: path, line: line))
            defer { printed += run.outputs.last?.count ?? 0 }
            run.outputs.append(lines(sink.takeCaptured()))
            switch outcome {
            case .succeeded: break
            case .failed:
                let error = run.outputs.last?.first { $0.contains("error: ") } ?? command.text
                run.failures.append((command.line, error))
            case .quit: stopped = true
            case .interrupted:
                stopped = true
                run.interrupted = true
            }
        }
        if !run.interrupted {
            _ = await session.finishLateReplies()
            // Late replies come after the last command: they are printed under it.
            let late = lines(sink.takeCaptured())
            if !late.isEmpty, !run.outputs.isEmpty { run.outputs[run.outputs.count - 1] += late }
        }
        run.scriptName = session.scriptName
        if drawingFlow { run.diagram = session.flow(flowCommands, for: "export-diagram", defaultAll: true) }
        if keepingTestSteps {
            run.steps = session.testSteps
            run.states = await session.targetStates()
        }
        return run
    }

    private static func lines(_ bytes: [UInt8]) -> [String] {
        bytes.isEmpty ? [] : UnifiedDiff.lines(String(decoding: bytes, as: UTF8.self))
    }
}
