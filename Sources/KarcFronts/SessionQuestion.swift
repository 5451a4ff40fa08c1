import KarcRendering

/// What the inspector's page asks of a session (``SessionInbox``); each is
/// answered with one JSON object (KarcSession's `ShellSession.answer(_:)`), or
/// `{"error": "…"}` saying what was wrong.
package enum SessionQuestion: Sendable, Equatable {
    /// Runs `line` as if it were typed at the prompt: numbered, printed in
    /// the terminal and on every page. Answered with its number and outcome.
    case run(String)
    /// What Tab gives for `line` (the text before the cursor): the text to insert and the candidates.
    case complete(String)
    /// The cluster's targets (name, state type, commands, whether it can be
    /// restored), the snapshots kept, the watches, and the last command's number.
    case overview
    /// The part of `target`'s state at `path` (``StatePath``'s text; empty:
    /// the whole state), now or as it was after command `after`, with its
    /// children from `offset`, at most `limit`; and the parts command `after` changed.
    case state(target: String, path: String, after: Int?, offset: Int, limit: Int)
    /// The paths in `target`'s state (now, or after command `after`) whose name or value contains `text`.
    case search(target: String, text: String, after: Int?)
    /// Command N's causal tree, as `:trace N` prints it, a line a hop.
    case trace(Int)
    /// Command N's sequence diagram: its lifelines and messages in order, as `:seq N` draws them, and as Mermaid.
    case diagram(Int)
    /// Puts every state that can be restored back as it was after command N
    /// (the `:undo` that goes back there, run as a command).
    case back(to: Int)
}

/// The JSON objects that answer a ``SessionQuestion``.
package enum SessionAnswer {
    /// `{"error":"…"}`.
    package static func refusal(_ message: String) -> String {
        JSONLine.write(["error": message])
    }
}
