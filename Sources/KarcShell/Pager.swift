import CKarcTerminal
import Foundation
import KarcSession

/// Output longer than the screen, shown through `$PAGER` (else `less`, else
/// `more`) at the prompt, as psql shows a long result. Only on a terminal;
/// scripts and `--json` never page.
package enum Pager {
    /// Shows `bytes`: through the pager when they need more rows than the
    /// terminal has, else written as they are. Returns once the pager quit.
    package static func show(_ bytes: [UInt8], environment: [String: String] = ProcessInfo.processInfo.environment) async {
        let rows = Int(karc_terminal_rows(STDOUT_FILENO))
        let lines = bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        // A row is kept for the prompt that follows.
        guard rows > 0, lines >= rows, let command = pagerCommand(environment) else {
            OutputSink.writeAll(bytes, to: STDOUT_FILENO)
            return
        }
        guard await run(command, input: bytes) else {
            OutputSink.writeAll(bytes, to: STDOUT_FILENO)  // no pager could start: the text is not lost
            return
        }
    }

    /// `$PAGER` (empty: none), else `less` with colours kept, else `more`.
    static func pagerCommand(_ environment: [String: String]) -> String? {
        if let pager = environment["PAGER"] {
            return pager.trimmingCharacters(in: .whitespaces).isEmpty ? nil : pager
        }
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        if path.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/less") }) { return "less -R -F -X" }
        if path.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/more") }) { return "more" }
        return nil
    }

    /// Runs `/bin/sh -c command` with `input` on its standard input and the
    /// terminal as its output; false when it could not start.
    private static func run(_ command: String, input: [UInt8]) async -> Bool {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return false }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        let spawned = withCStrings(arguments) { argv in
            posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        }
        close(readEnd)
        guard spawned == 0 else {
            close(writeEnd)
            return false
        }
        // The pager reads as it shows; a thread writes (and may block), then waits for its end.
        let child = pid
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                // A pager that quits early closes the pipe: ignore SIGPIPE's EPIPE, stop writing.
                signal(SIGPIPE, SIG_IGN)
                OutputSink.writeAll(input, to: writeEnd)
                close(writeEnd)
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0, errno == EINTR {}
                continuation.resume(returning: true)
            }
            thread.name = "karc-pager"
            thread.start()
        }
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
