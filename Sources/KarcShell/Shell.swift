import Foundation

/// Runs the karc shell in front of a cluster.
///
/// ```swift
/// let cluster = try await Bootstrap { … }
/// var options = ShellOptions()
/// options.echo = true
/// exit(await Shell.run(ClusterShell(name: "shop", cluster: cluster), options: options))
/// ```
public enum Shell {
    /// Runs `commands` (each a line, like `-e`), then `script` (a file,
    /// or `-` for standard input); with neither, reads standard input: a
    /// prompt on a terminal, a script otherwise. Returns the exit status:
    /// 0 when every command succeeded, 1 otherwise.
    public static func run(
        _ cluster: any ShellCluster, options: ShellOptions, commands: [String] = [], script: String? = nil
    ) async -> Int32 {
        await withTaskExecutorPreference(ShellExecutor.shared) {
            await runHere(cluster, options: options, commands: commands, script: script)
        }
    }

    private static func runHere(
        _ cluster: any ShellCluster, options: ShellOptions, commands: [String], script: String?
    ) async -> Int32 {
        let sink = OutputSink()
        let session = ShellSession(cluster: cluster, options: options, sink: sink)
        defer { sink.flush() }
        let runner = ScriptRunner(session: session)
        // Start-up work (a bootstrap pipe restoring saved state, say) finishes
        // before the first command, so the first command sees its result.
        _ = await cluster.settled(timeout: options.timeout)
        var failed = false
        if !commands.isEmpty {
            switch await runner.run(lines: commands, name: "-e") {
            case .succeeded: break
            case .failed:
                failed = true
                if !options.keepGoing { return 1 }
            case .quit(let quitFailed): return quitFailed ? 1 : 0
            }
            if script == nil { return failed ? 1 : 0 }
        }
        let result: ScriptRunner.Result
        if let script, script != "-" {
            do {
                result = await runner.run(standardInput: try ScriptRunner.open(script), name: script)
            } catch {
                session.renderer.error(error.message, script: nil, line: nil, column: nil)
                return 1
            }
        } else if script == nil, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            result = await Prompt(session: session).run()
        } else {
            result = await runner.run(standardInput: StandardInputLines(), name: "<stdin>")
        }
        switch result {
        case .succeeded: return failed ? 1 : 0
        case .failed: return 1
        case .quit(let quitFailed): return failed || quitFailed ? 1 : 0
        }
    }
}
