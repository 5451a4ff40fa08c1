import DequeModule

/// Puts the lines of a script or of the prompt together into commands: a
/// line that leaves a string, list or object open (``LineContinuation``)
/// goes on on the next ones.
///
/// A continued command is bounded (``lineLimit`` lines, ``byteLimit``
/// bytes). A stray quote or bracket that is still open at the bound, or at
/// the end of the input, costs one command, not the rest of the script: the
/// lines up to the one where it opened are handed out as
/// ``Read/unterminated(_:)``, and reading goes on at the line after that one.
///
/// ```
/// lines ─▶ append ─▶ [pending lines, scanned once] ─▶ next() ─▶ .command
///                                   │ bound or end, still open
///                                   └─▶ .unterminated (up to the opening line);
///                                       the lines after it are read again
/// ```
package struct CommandReader {
    /// At most this many lines in one command.
    package static let lineLimit = 10_000
    /// At most this many bytes (UTF-8, newlines included) in one command.
    package static let byteLimit = 1 << 20

    /// One command: its lines, joined with newlines.
    package struct Command: Equatable {
        /// As the session runs it.
        package let text: String
        /// Its first line's number, counted from 1 (lines handed to ``append(_:)``).
        package let line: Int

        package init(lines: some Collection<String>, line: Int) {
            text = lines.count == 1 ? lines.first ?? "" : lines.joined(separator: "\n")
            self.line = line
        }

        /// Its lines (no line holds a newline: lines are split at them).
        package var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    /// A command whose string, list or object never closed.
    package struct Unterminated: Equatable {
        /// The lines up to (and with) the one where it opened; the next command starts after them.
        package let command: Command
        package let opening: LineContinuation.Opening
        /// True when the input ended with it open; false when the bound was reached.
        package let atEnd: Bool

        /// The line it opened on (counted as ``Command/line`` is).
        package var line: Int { command.line + opening.lineOffset }

        /// That line.
        package var text: String { command.lines.dropFirst(opening.lineOffset).first ?? "" }

        /// The 1-based column, in characters, where it opened on that line.
        package var column: Int { String(decoding: text.utf8.prefix(opening.byteOffset), as: UTF8.self).count + 1 }

        /// What went wrong, where, and what happens now, as an error says it.
        package var message: String {
            let still =
                atEnd
                ? "is still open at the end of the input"
                : "is still open after \(CommandReader.lineLimit) lines or 1 MiB, the most one command may take"
            let skipped = command.lines.count == 1 ? "line \(line) is skipped" : "lines \(command.line)–\(line) are skipped"
            return "unterminated \(opening.kind.name): the '\(opening.kind.opener)' at line \(line), column \(column) \(still)"
                + " (add a closing '\(opening.kind.closing)'); \(skipped), and reading goes on at line \(line + 1)"
        }
    }

    package enum Read: Equatable {
        case command(Command)
        case unterminated(Unterminated)
    }

    /// A whole one-line command appended while nothing was pending: most
    /// lines, handed out without going through `pending`.
    private var ready: Command?
    /// Lines appended and not handed out yet; the first `scanned` of them are read into `scanner`.
    private var pending: Deque<String> = []
    private var scanned = 0
    private var scannedBytes = 0
    private var scanner = LineContinuation()
    /// The number of `pending`'s first line.
    private var firstLine = 1

    package init() {}

    /// Whether lines are held that do not make a whole command yet.
    package var isContinuing: Bool { !pending.isEmpty }

    /// The next line appended is line 1 (at the prompt, each command's lines are counted on their own).
    package mutating func restartNumbering() {
        firstLine = 1
    }

    /// Drops the lines of a command that does not end yet (Ctrl-C at a
    /// `...>` prompt); how many were dropped.
    package mutating func discardPending() -> Int {
        let count = pending.count
        pending = []
        scanned = 0
        scannedBytes = 0
        scanner = LineContinuation()
        return count
    }

    package mutating func append(_ line: String) {
        if pending.isEmpty, ready == nil, !LineContinuation.isOpen(line) {
            ready = Command(lines: CollectionOfOne(line), line: firstLine)
            firstLine += 1
            return
        }
        pending.append(line)
    }

    /// The next command, or nil when the lines appended do not end one yet.
    /// With `atEnd` (no more lines come), an open command is handed out as unterminated.
    package mutating func next(atEnd: Bool = false) -> Read? {
        if let command = ready {
            ready = nil
            return .command(command)
        }
        while scanned < pending.count {
            let line = pending[scanned]
            scanner.add(line)
            scanned += 1
            scannedBytes += line.utf8.count + 1
            if !scanner.isOpen { return .command(take(scanned)) }
            if scanned >= Self.lineLimit || scannedBytes > Self.byteLimit { return unterminated(atEnd: false) }
        }
        guard atEnd, scanned > 0 else { return nil }
        return unterminated(atEnd: true)
    }

    private mutating func unterminated(atEnd: Bool) -> Read {
        // Only a line already read can be open, and every open scanner knows where.
        let opening = scanner.opening ?? LineContinuation.Opening(kind: .string, lineOffset: 0, byteOffset: 0)
        return .unterminated(Unterminated(command: take(opening.lineOffset + 1), opening: opening, atEnd: atEnd))
    }

    /// Hands out the first `count` lines; those after them are read again.
    private mutating func take(_ count: Int) -> Command {
        let command = Command(lines: pending.prefix(count), line: firstLine)
        pending.removeFirst(count)
        firstLine += count
        scanned = 0
        scannedBytes = 0
        scanner = LineContinuation()
        return command
    }
}
