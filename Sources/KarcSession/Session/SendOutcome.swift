import KarcOutput

/// What became of a command the shell sent.
enum SendOutcome: Sendable {
    case replied((any Sendable)?)
    case threw(any Error)
    case timedOut
    /// Ctrl-C: the shell stopped waiting.
    case interrupted
}
