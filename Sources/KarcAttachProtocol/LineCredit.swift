/// Flow control for an attach session's lines, as both ends keep it: the
/// shell sends lines only while the cost of those the app has not taken
/// yet fits in the credit the app gave; the app checks it did. So an app
/// holds at most ``window`` of a shell's lines, whatever the shell pipes,
/// and a Ctrl-C (which costs nothing) is never queued behind more.
///
/// A pure state machine: the shell's waiting and the app's bookkeeping
/// keep it under their locks.
package struct LineCredit: Sendable, Equatable {
    /// The credit: at most this cost outstanding.
    package let window: Int
    /// The cost of lines sent (by the shell) and not returned (taken by the app's session).
    package private(set) var outstanding = 0

    package init(window: Int) {
        self.window = max(1, window)
    }

    /// What a line costs: its UTF-8 bytes and ``AttachProtocol/lineOverhead``.
    package static func cost(of line: String) -> Int {
        line.utf8.count + AttachProtocol.lineOverhead
    }

    package static func cost(of lines: [String]) -> Int {
        lines.reduce(0) { $0 + cost(of: $1) }
    }

    /// Whether a batch of `count` lines costing `cost` may be sent now: it
    /// fits, or it is one line costlier than the whole window and nothing is outstanding.
    package func allows(cost: Int, count: Int) -> Bool {
        outstanding + cost <= window || (outstanding == 0 && count == 1)
    }

    /// A batch was sent (shell) or received (app).
    package mutating func spend(_ cost: Int) {
        outstanding += cost
    }

    /// The app took lines costing `cost`.
    package mutating func returned(_ cost: Int) {
        outstanding = max(0, outstanding - cost)
    }
}
