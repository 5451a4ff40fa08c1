import Foundation
import KarcAsync
import KarcLanguage
import KarcOutput
import KarcRendering

/// Runs the karc shell in front of a cluster.
///
/// ```swift
/// let cluster = try await Bootstrap { … }
/// var options = ShellOptions()
/// options.printing.echo = true
/// exit(await Shell.run(ClusterShell(name: "shop", cluster: cluster), options: options))
/// ```
///
/// A session, the same whether its lines come from a script, `-e`, the
/// prompt or an attached `karc attach`:
///
/// ```
/// line ──▶ LineParser ──▶ meta command (:state, :wait, :diff …) ──▶ the session's own work
///             │
///             ▼ target.command field=value …
///          CommandBuilder (the Catalog's schema, @Command defaults) ──▶ a typed action
///             │
///             ▼
///          ShellCluster.send ──▶ the reply ──▶ Renderer
///                 │
///                 └─ records, pushed as they happen (events, state changes, redirects)
///                      ──▶ Renderer: readable (StateDiff, custom-dump's text)
///                                    or --json (one object a line, a JSON Patch a state)
///                      ──▶ OutputSink ──▶ stdout, the prompt (above the line), or the attach stream
/// ```
///
/// A command is done when its reply came back and the cluster settled (the
/// work it started finished, within `--timeout`), so every record it caused
/// is printed under it.
///
/// `Shell.run` and `ShellApp` (the prompt, the command line) are in
/// `KarcShell`; `Shell.check` and `Shell.exportTest` (`KarcScriptTools`)
/// need no terminal.
public enum Shell {
    /// Where a session's commands come from after its `-e` commands.
    package enum Input {
        /// None: the session ends after the `-e` commands.
        case none
        /// A script's lines as they arrive (a file, standard input, an attached shell's), named in errors.
        case lines(any LineSource, name: String)
        /// The script at this path on the session's host.
        case file(String)
        /// A prompt, through this editor.
        case prompt(any PromptEditor)
    }

    /// Runs a session: the `-e` `commands`, then `input`, printing to `sink`;
    /// returns the exit status (0 when every command succeeded, 1 otherwise).
    /// With `inspect`, the runtime's inspector starts first, its URL on standard error.
    /// Ctrl-C reaches it through `interrupter`; the events it prints and the
    /// snapshots it keeps go to `words` (what a prompt completes); its waits keep `runtime`'s
    /// time and its sends run on its executor. What `Shell.run` and an
    /// attached shell's session in an app (`ClusterEndpoint`) both run.
    package static func runSession(
        _ cluster: any ShellCluster, options: ShellOptions, commands: [String], input: Input,
        sink: OutputSink, host: any ShellHost, interrupter: Interrupter = Interrupter(), words: PromptWords = PromptWords(),
        runtime: ShellRuntime = ShellRuntime(), fronts: [any SessionFront] = [], inspect: Bool = false
    ) async -> Int32 {
        let session = ShellSession(
            cluster: cluster, options: options, sink: sink, host: host, interrupter: interrupter, words: words, runtime: runtime)
        for front in fronts { _ = session.subscribe(front) }
        defer { sink.flush() }
        if let path = options.history.recordFile {
            do {
                session.log.record.recording = try await host.recorder(appendingTo: path)
                session.log.record.recordsFailures = options.history.recordsFailures
                session.log.record.recording?(SessionRecord.header(cluster: cluster.name, verb: "recorded"))
            } catch {
                session.renderer.error(error.message, script: nil, line: nil, column: nil)
                return 1
            }
        }
        // The script is opened (and looked into) before any -e command runs: a file that is no script runs nothing.
        var script: (any LineSource)?
        if case .file(let path) = input {
            do {
                script = try await host.openScript(path)
            } catch {
                session.renderer.error(error.message, script: nil, line: nil, column: nil)
                return 1
            }
        }
        let runner = ScriptRunner(session: session)
        // Start-up work (a bootstrap pipe restoring saved state, say) finishes
        // before the first command, so the first command sees its result.
        _ = await cluster.settled(timeout: options.timeout)
        await session.watchAgain(options.watches)
        // An inspector that did not start ends a script before it runs (as `karc --inspect` does); a prompt goes on.
        if inspect, !(await session.startInspectorFirst()) {
            if case .prompt = input {} else { return 1 }
        }
        var failed = false
        if !commands.isEmpty {
            switch await runner.run(lines: commands, name: "-e") {
            case .succeeded: break
            case .failed:
                failed = true
                if !options.keepGoing { return 1 }
            case .quit(let quitFailed): return quitFailed ? 1 : 0
            case .interrupted: return 1
            }
        }
        let result: ScriptRunner.Result
        var prompting = false
        switch input {
        case .none:
            return await session.finishLateReplies() && !failed ? 0 : 1
        case .lines(let lines, let name):
            result = await runner.run(standardInput: lines, name: name)
        case .file(let path):
            guard let script else { return 1 }  // opened above, or this returned there
            result = await runner.run(standardInput: script, name: path)
        case .prompt(let editor):
            prompting = true
            result = await Prompt(session: session, editor: editor).run()
        }
        if !prompting, result != .interrupted, !(await session.finishLateReplies()) { failed = true }
        switch result {
        case .succeeded: return failed ? 1 : 0
        case .failed, .interrupted: return 1
        case .quit(let quitFailed): return failed || quitFailed ? 1 : 0
        }
    }
}
