import Foundation

/// Runs the lines of a script (a file, standard input, `-e` arguments)
/// through a session: the first failure stops it, unless `--keep-going`.
struct ScriptRunner {
    let session: ShellSession

    struct ReadError: Error {
        let message: String
    }

    enum Result: Equatable {
        /// Every command succeeded.
        case succeeded
        /// At least one command failed.
        case failed
        /// `:quit` ended it (after `failed` commands, if any).
        case quit(failed: Bool)
    }

    func run(lines: some Sequence<String>, name: String?) async -> Result {
        var iterator = lines.makeIterator()
        return await run(name: name) { iterator.next() }
    }

    /// Runs standard input's lines as they arrive.
    func run(standardInput lines: StandardInputLines, name: String?) async -> Result {
        await run(name: name) {
            // What was printed goes out before the shell waits for more input.
            if !lines.hasLineReady { session.renderer.sink.flush() }
            return await lines.next()
        }
    }

    private func run(name: String?, next: () async -> String?) async -> Result {
        var failed = false
        var index = 0
        while let text = await next() {
            index += 1
            switch await session.execute(text, at: .init(script: name, line: index)) {
            case .succeeded: continue
            case .quit: return .quit(failed: failed)
            case .failed:
                failed = true
                if !session.options.keepGoing { return .failed }
            }
        }
        return failed ? .failed : .succeeded
    }

    /// The lines of a script's text (a final newline does not make an empty last line).
    static func lines(of text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The text of a script file, or an error that names it.
    static func read(_ path: String) throws(ReadError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw ReadError(message: exists
                ? (isDirectory.boolValue ? "\(path) is a directory, not a script" : "cannot read \(path)")
                : "no such script: \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
