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
/// Those lines are read again, so input of many stray openers would be read
/// again and again (each to the bound or the end: n² for n of them); past
/// ``rereadLimit`` bytes read again, a line that leaves something open is
/// handed out as unterminated on its own, and the reader stays linear.
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
    /// At most this many bytes are read again after unterminated commands;
    /// past it, an open line is not continued (32 times ``byteLimit``: a
    /// script with a few stray quotes never comes near it).
    package static let rereadLimit = 32 << 20

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
        /// Where reading it stopped.
        package let bound: Bound

        /// Where reading an unterminated command stopped.
        package enum Bound: Equatable {
            /// The input ended with it open.
            case end
            /// It reached ``CommandReader/lineLimit`` or ``CommandReader/byteLimit``.
            case limit
            /// At its own line's end: past ``CommandReader/rereadLimit``, open lines are not continued.
            case line
        }

        /// True when the input ended with it open.
        package var atEnd: Bool { bound == .end }

        /// The line it opened on (counted as ``Command/line`` is).
        package var line: Int { command.line + opening.lineOffset }

        /// That line.
        package var text: String { command.lines.dropFirst(opening.lineOffset).first ?? "" }

        /// The 1-based column, in characters, where it opened on that line.
        package var column: Int { String(decoding: text.utf8.prefix(opening.byteOffset), as: UTF8.self).count + 1 }

        /// What went wrong, where, and what happens now, as an error says it.
        package var message: String {
            let still =
                switch bound {
                case .end: "is still open at the end of the input"
                case .limit: "is still open after \(CommandReader.lineLimit) lines or 1 MiB, the most one command may take"
                case .line:
                    "is still open at the end of its line (so many commands of this input never closed"
                        + " that a line is no longer continued on the next)"
                }
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
    /// Bytes read again after unterminated commands, up to `rereadLimit` (``CommandReader/rereadLimit``).
    package private(set) var bytesReadAgain = 0
    private let rereadLimit: Int
    /// The number of `pending`'s first line.
    private var firstLine = 1

    /// A reader that reads at most `rereadLimit` bytes again (``CommandReader/rereadLimit``).
    package init(rereadLimit: Int = CommandReader.rereadLimit) {
        self.rereadLimit = rereadLimit
    }

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
            if scanned == 1, bytesReadAgain > rereadLimit { return unterminated(.line) }
            if scanned >= Self.lineLimit || scannedBytes > Self.byteLimit { return unterminated(.limit) }
        }
        guard atEnd, scanned > 0 else { return nil }
        return unterminated(.end)
    }

    private mutating func unterminated(_ bound: Unterminated.Bound) -> Read {
        // Only a line already read can be open, and every open scanner knows where.
        let opening = scanner.opening ?? LineContinuation.Opening(kind: .string, lineOffset: 0, byteOffset: 0)
        let taken = pending.prefix(opening.lineOffset + 1).reduce(0) { $0 + $1.utf8.count + 1 }
        bytesReadAgain += scannedBytes - taken
        return .unterminated(Unterminated(command: take(opening.lineOffset + 1), opening: opening, bound: bound))
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
