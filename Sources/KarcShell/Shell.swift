import CKarcTerminal
import Foundation
import Synchronization
import KarcAsync

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
        if let path = options.recordFile {
            do {
                try session.record.record(to: path, cluster: cluster.name)
            } catch {
                session.renderer.error(error.message, script: nil, line: nil, column: nil)
                return 1
            }
        }
        let runner = ScriptRunner(session: session)
        let prompting = commands.isEmpty && script == nil && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        // At a prompt the line editor takes Ctrl-C; a script ends its running command with it.
        if !prompting { ScriptInterrupts.forward(to: session.interrupter) }
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
            case .interrupted: return 1
            }
            if script == nil { return await session.finishLateReplies() && !failed ? 0 : 1 }
        }
        let result: ScriptRunner.Result
        if let script, script != "-" {
            do {
                result = await runner.run(standardInput: try ScriptRunner.open(script), name: script)
            } catch {
                session.renderer.error(error.message, script: nil, line: nil, column: nil)
                return 1
            }
        } else if script == nil, prompting {
            result = await Prompt(session: session).run()
        } else {
            result = await runner.run(standardInput: StandardInputLines(), name: "<stdin>")
        }
        if !prompting, result != .interrupted, !(await session.finishLateReplies()) { failed = true }
        switch result {
        case .succeeded: return failed ? 1 : 0
        case .failed, .interrupted: return 1
        case .quit(let quitFailed): return failed || quitFailed ? 1 : 0
        }
    }
}

/// SIGINT during a script, handed to the running session's ``Interrupter``
/// by a thread of its own (the C handler only writes a byte to a pipe).
/// Installed once a process; each script run points it at its session.
enum ScriptInterrupts {
    private static let state = KarcMutex<(installed: Bool, interrupter: Interrupter?)>((false, nil))

    static func forward(to interrupter: Interrupter) {
        let install = state.withLock { s -> Bool in
            s.interrupter = interrupter
            defer { s.installed = true }
            return !s.installed
        }
        guard install else { return }
        var fds: [Int32] = [-1, -1]
        // Without a pipe (out of descriptors) Ctrl-C keeps its default effect.
        guard pipe(&fds) == 0 else { return }
        let read = fds[0]
        karc_install_interrupt_handler(fds[1])
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = Foundation.read(read, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                state.withLock { $0.interrupter }?.trigger()
            }
        }
        thread.name = "karc-interrupts"
        thread.start()
    }
}
