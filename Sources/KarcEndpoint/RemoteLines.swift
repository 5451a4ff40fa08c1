import KarcSession

/// A script's lines as an attached shell sends them: the session reads
/// them as they come (and, before each command, waits for its output to
/// have room: a shell that stops reading holds its script, not the app's
/// memory).
///
/// Each line taken gives its cost back to the shell (``LineLedger``), which
/// sends no more than its credit: the queue holds at most that.
final class RemoteLines: LineSource {
    private let queue = LineQueue()
    private let ledger: LineLedger?

    init(ledger: LineLedger?) {
        self.ledger = ledger
    }

    /// Lines from a whole file (`:source`), all there.
    convenience init(text: String) {
        self.init(ledger: nil)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        if lines.last == "" { lines.removeLast() }
        queue.append(lines, finished: true)
    }

    var hasLineReady: Bool { queue.hasLineReady }

    func next() async -> String? {
        let line = await queue.next()
        if let line { ledger?.taken(line) }
        return line
    }

    func append(_ more: [String]) {
        queue.append(more)
    }

    /// The end of the script.
    func finish() {
        queue.finish()
    }

    /// The shell is gone: the lines not run yet are dropped.
    func abandon() {
        queue.abandon()
    }
}
