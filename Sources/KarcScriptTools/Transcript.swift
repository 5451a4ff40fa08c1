import KarcLanguage
import KarcSession

/// A `.karc` script read as a checked transcript: each command with the
/// output expected under it, and the masks for what differs on every run.
///
/// ```
/// #mask uuid
/// counter.increment value=2
/// #= state  counter:
/// #=   - CounterStore.State(count: 0)
/// #=   + CounterStore.State(count: 2)
/// ```
///
/// Expected lines begin `#= ` (`#=` alone for an empty line) right under
/// their command; a mask line is `#mask NAME` (a built-in mask) or
/// `#mask NAME PATTERN` (a regular expression). Both begin with `#`, so a
/// plain run reads them as comments. Everything else is kept as it is.
package struct Transcript {
    enum Part: Equatable {
        /// A line that is not a command's nor its output: a comment, a mask, a blank line.
        case text(String)
        /// A command (its lines: an open list or string goes on), the line it
        /// starts on (from 1), and the output expected under it.
        case command(lines: [String], line: Int, expected: [String])
    }

    private(set) var parts: [Part] = []
    private(set) var masks: [TranscriptMask] = []
    /// Whether the file ended with a newline (kept by ``rewritten(with:)``).
    private var endsWithNewline = true

    /// A problem with the script itself, at a line.
    package struct Problem: Error, Equatable {
        let line: Int
        let message: String
    }

    package init(text: String) throws(Problem) {
        // An editor's byte-order mark is no part of the first command (the session drops it too).
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        let lines = UnifiedDiff.lines(text)
        endsWithNewline = text.isEmpty || text.hasSuffix("\n")
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let number = index + 1
            index += 1
            if CheckLine.expected(line) != nil {
                // Output under no command: kept, so that a check shows it as not printed.
                parts.append(.text(line))
                continue
            }
            if let mask = try TranscriptMask.parse(line, at: number) {
                masks.append(mask)
                parts.append(.text(line))
                continue
            }
            guard Self.isCommand(line) else {
                parts.append(.text(line))
                continue
            }
            // The lines of a continued command; a delimiter never closed ends it at the line where it opened.
            var reader = CommandReader()
            reader.append(line)
            var read = reader.next(atEnd: index == lines.count)
            while read == nil {
                reader.append(lines[index])
                index += 1
                read = reader.next(atEnd: index == lines.count)
            }
            let command: [String]
            switch read {
            case .command(let whole)?: command = whole.lines
            case .unterminated(let open)?: command = open.command.lines
            case nil: command = [line]
            }
            index = number - 1 + command.count
            var expected: [String] = []
            while index < lines.count, let output = CheckLine.expected(lines[index]) {
                expected.append(output)
                index += 1
            }
            parts.append(.command(lines: command, line: number, expected: expected))
        }
    }

    /// The commands, in order, each as the shell runs it (its lines joined),
    /// with how many lines come before it in ``rewritten(with:)`` apart from
    /// the output of the commands before it, and the line it starts on in
    /// the file as it is.
    var commands: [(text: String, linesBefore: Int, line: Int)] {
        var before = 0
        return parts.compactMap { part in
            switch part {
            case .text(let line):
                if CheckLine.expected(line) == nil { before += 1 }
                return nil
            case .command(let lines, let line, _):
                defer { before += lines.count }
                return (lines.joined(separator: "\n"), before, line)
            }
        }
    }

    /// The script with each command's expectations replaced by `outputs`
    /// (one list of lines a command, in order; masked here), and the
    /// output under no command left out: what `--update` writes, and what
    /// a check compares with the file as it is.
    func rewritten(with outputs: [[String]]) -> String {
        var out: [String] = []
        var next = 0
        for part in parts {
            switch part {
            case .text(let line):
                if CheckLine.expected(line) == nil { out.append(line) }
            case .command(let lines, _, _):
                out += lines
                let output = next < outputs.count ? outputs[next] : []
                next += 1
                out += output.map { Self.expectation(TranscriptMask.apply(masks, to: $0)) }
            }
        }
        // An empty file is a transcript of nothing: it stays empty, not a blank line.
        guard !out.isEmpty else { return "" }
        return out.joined(separator: "\n") + (endsWithNewline ? "\n" : "")
    }

    /// An expected line as written in a script.
    static func expectation(_ output: String) -> String {
        output.isEmpty ? CheckLine.expectationPrefix : CheckLine.expectationPrefix + " " + output
    }

    /// Whether the shell runs the line: not blank, not a comment.
    private static func isCommand(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return !trimmed.isEmpty && trimmed.first != "#"
    }
}
