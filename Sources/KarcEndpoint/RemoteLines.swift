import KarcAsync
import KarcSession

/// A script's lines as an attached shell sends them: the session reads
/// them as they come, and, before each, waits for its output to drain below
/// the high-water mark (a shell that stops reading holds its script, not
/// the app's memory).
final class RemoteLines: LineSource {
    private struct State {
        var lines: [String] = []
        var next = 0
        var isFinished = false
        var waiting: CheckedContinuation<Void, Never>?
    }

    private let state = KarcMutex(State())
    private let outbox: Outbox?

    init(outbox: Outbox?) {
        self.outbox = outbox
    }

    /// Lines from a whole file (`:source`), with no output to wait for.
    convenience init(text: String) {
        self.init(outbox: nil)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        if lines.last == "" { lines.removeLast() }
        append(lines)
        finish()
    }

    var hasLineReady: Bool {
        (outbox?.isBelowHighWater ?? true) && state.withLock { $0.next < $0.lines.count || $0.isFinished }
    }

    func next() async -> String? {
        await outbox?.belowHighWater()
        while true {
            let line = state.withLock { s -> String?? in
                if s.next < s.lines.count {
                    defer { s.next += 1 }
                    return s.lines[s.next]
                }
                return s.isFinished ? .some(nil) : nil
            }
            if let line { return line }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { s in
                    guard s.next >= s.lines.count, !s.isFinished else { return true }
                    s.waiting = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    func append(_ more: [String]) {
        update { s in
            if s.next > 1024 {
                s.lines.removeFirst(s.next)
                s.next = 0
            }
            s.lines += more
        }
    }

    /// The end of the script.
    func finish() {
        update { $0.isFinished = true }
    }

    /// The shell is gone: the lines not run yet are dropped.
    func abandon() {
        update { s in
            s.lines = []
            s.next = 0
            s.isFinished = true
        }
    }

    private func update(_ change: (inout State) -> Void) {
        let waiting = state.withLock { s in
            change(&s)
            defer { s.waiting = nil }
            return s.waiting
        }
        waiting?.resume()
    }
}
