import CKarcTerminal
import Foundation
import KarcAsync
import KarcInspector
import KarcSession
import Synchronization

extension Shell {
    /// Runs `commands` (each a line, like `-e`), then `script` (a file,
    /// or `-` for standard input); with neither, reads standard input: a
    /// prompt on a terminal, a script otherwise. Returns the exit status:
    /// 0 when every command succeeded, 1 otherwise; 130, 143 or 129 when
    /// SIGINT, SIGTERM or SIGHUP ended a script.
    public static func run(
        _ cluster: any ShellCluster, options: ShellOptions, commands: [String] = [], script: String? = nil
    ) async -> Int32 {
        let inspector = InspectorStarter()
        let status = await run(cluster, options: options, commands: commands, script: script, inspector: inspector, fronts: [])
        await inspector.stop()
        return status
    }

    /// ``run(_:options:commands:script:)``, its output told to `fronts` too (an inspector's already started),
    /// and `:inspect` starting `inspector`.
    package static func run(
        _ cluster: any ShellCluster, options: ShellOptions, commands: [String], script: String?, inspector: (any InspectorStarting)?,
        fronts: [any SessionFront]
    ) async -> Int32 {
        let (interrupter, words) = (Interrupter(), PromptWords())
        let prompting = commands.isEmpty && script == nil && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        let input: Input
        if let script, script != "-" {
            input = .file(script)
        } else if script == nil, !commands.isEmpty {
            input = .none
        } else if prompting {
            input = .prompt(
                LineEditor.forSession(
                    named: cluster.name,
                    completer: Completer(
                        catalog: cluster.catalog, events: { words.events }, snapshots: { words.snapshots },
                        statePaths: Completer.statePaths(of: cluster)),
                    historyFile: options.history.file, interrupt: { interrupter.trigger() }, lineEntered: { interrupter.reset() }))
        } else {
            input = .lines(StandardInputLines(), name: "<stdin>")
        }
        var runtime = ShellRuntime()
        // A wait that prints nothing (late replies after a script) says what it waits for, on a terminal only.
        runtime.statusLine = TerminalStatusLine.writer(json: options.printing.json)
        // A script's `:seq` and `:trace` fit the terminal, or the width `COLUMNS` gives a pipe (`COLUMNS=60 karc s.karc | less`).
        let columnsVariable = ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        runtime.columns = { LineEditor.terminalColumns ?? columnsVariable }
        runtime.inspector = inspector
        let sink = OutputSink(clock: runtime.clock)
        // A crash of the app under the shell writes what its last commands printed before the crash report.
        sink.keepsOutputThroughACrash()
        // At a prompt the line editor takes Ctrl-C; a script ends its running command with
        // it, and SIGINT, SIGTERM or SIGHUP end the script with 130, 143 or 129.
        if !prompting { ScriptSignals.forward(to: interrupter, flushing: sink) }
        let status = await withTaskExecutorPreference(runtime.executor) {
            await runSession(
                cluster, options: options, commands: commands, input: input, sink: sink, host: LocalHost { await Pager.show($0) },
                interrupter: interrupter, words: words, runtime: runtime, fronts: fronts)
        }
        return prompting ? status : ScriptSignals.exitStatus ?? status
    }
}
