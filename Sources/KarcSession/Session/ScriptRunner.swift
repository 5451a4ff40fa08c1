import Foundation
import KarcLanguage
import KarcOutput

/// Runs the lines of a script (a file, standard input, `-e` arguments)
/// through a session: the first failure stops it, unless `--keep-going`.
package struct ScriptRunner {
    let session: ShellSession

    package init(session: ShellSession) {
        self.session = session
    }

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

    package func run(lines: some Sequence<String>, name: String?) async -> Result {
        var iterator = lines.makeIterator()
        return await run(name: name) { iterator.next() }
    }

    /// Runs standard input's lines as they arrive; while none has, the
    /// inspector's page is answered (a script kept open is a session a page can drive).
    func run(standardInput lines: any LineSource, name: String?) async -> Result {
        // One read at a time: a read a question woke the wait from is the one waited for next.
        var reading: Task<String?, Never>?
        let inbox = session.inbox
        let result = await run(name: name) {
            if reading == nil, lines.hasLineReady { return await lines.next() }
            // What was printed goes out before the shell waits for more input, and Ctrl-C ends the wait.
            session.renderer.sink.flush()
            while true {
                let read = reading ?? Task { await lines.next() }
                reading = read
                switch await session.waits.race(alsoWake: inbox.map { inbox in { inbox.onArrival($0) } }, { await read.value }) {
                case .finished(let line):
                    reading = nil
                    return line
                case .woken:
                    if await session.answerQuestions() { session.renderer.sink.flush() }
                case .interrupted, .deadline:
                    return nil
                }
            }
        }
        return session.interrupter.isTriggered ? .interrupted : result
    }

    private func run(name: String?, next: () async -> String?) async -> Result {
        var failed = false
        var reader = CommandReader()
        var atEnd = false
        var isFirst = true
        while true {
            guard let read = reader.next(atEnd: atEnd) else {
                if atEnd { break }
                if var line = await next() {
                    // An editor's byte-order mark before the first line is no part of its first command.
                    if isFirst, line.unicodeScalars.first == "\u{FEFF}" { line.unicodeScalars.removeFirst() }
                    isFirst = false
                    reader.append(line)
                } else {
                    atEnd = true
                }
                continue
            }
            // An attached shell that stopped reading holds its script back, not the app's memory.
            guard await session.waitForRoom() else { return .interrupted }
            // The inspector's page is answered between two lines, as at a prompt.
            if session.inbox?.hasQuestions == true { _ = await session.answerQuestions() }
            let outcome: ShellSession.Outcome
            switch read {
            case .command(let command):
                outcome = await session.execute(command.text, at: .init(script: name, line: command.line))
            case .unterminated(let unterminated):
                outcome = session.refuse(unterminated, script: name)
            }
            switch outcome {
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
