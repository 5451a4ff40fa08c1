import Foundation

/// Runs the lines of a script (a file, standard input, `-e` arguments)
/// through a session: the first failure stops it, unless `--keep-going`.
package struct ScriptRunner {
    let session: ShellSession

    package enum Result: Equatable {
        /// Every command succeeded.
        case succeeded
        /// At least one command failed.
        case failed
        /// `:quit` ended it (after `failed` commands, if any).
        case quit(failed: Bool)
        /// Ctrl-C ended a command, and so the script.
        case interrupted
    }

    func run(lines: some Sequence<String>, name: String?) async -> Result {
        var iterator = lines.makeIterator()
        return await run(name: name) { iterator.next() }
    }

    /// Runs standard input's lines as they arrive.
    func run(standardInput lines: any LineSource, name: String?) async -> Result {
        let result = await run(name: name) {
            if lines.hasLineReady { return await lines.next() }
            // What was printed goes out before the shell waits for more input, and Ctrl-C ends the wait.
            session.renderer.sink.flush()
            return await session.interruptible { await lines.next() } ?? nil
        }
        return session.interrupter.isTriggered ? .interrupted : result
    }

    private func run(name: String?, next: () async -> String?) async -> Result {
        var failed = false
        var index = 0
        while var text = await next() {
            index += 1
            let first = index
            // An open string, list or object goes on on the next lines (to the end, at worst:
            // the parser then says what is unterminated).
            while LineContinuation.isOpen(text), let more = await next() {
                index += 1
                text += "\n" + more
            }
            switch await session.execute(text, at: .init(script: name, line: first)) {
            case .succeeded: continue
            case .quit: return .quit(failed: failed)
            case .interrupted: return .interrupted
            case .failed:
                failed = true
                if !session.options.keepGoing { return .failed }
            }
        }
        return failed ? .failed : .succeeded
    }
}
