/// The line editor a ``Prompt`` reads from and prints above: libedit on a
/// thread of its own (`KarcShell`'s `LineEditor`), or, for a session an
/// attached shell drives, that shell's editor at the other end of the
/// connection.
package protocol PromptEditor: Sendable {
    /// Shows the first prompt.
    func start()
    /// The line entered or the end of input, if one came; nil while the user types.
    func take() -> PromptInput?
    /// Calls `wake` once when input comes (at once if some is there).
    func onInput(_ wake: @escaping @Sendable () -> Void)
    /// Prints `bytes` above the prompt and the half-typed line.
    func print(_ bytes: [UInt8])
    /// Shows the prompt again after a line.
    func resume(_ resume: PromptResume)
    /// Leaves the terminal as it found it.
    func stop() async
    /// How many columns the terminal has now; nil when not known (an attached shell's).
    var columns: Int? { get }
    /// Drops the lines entered that ``take()`` has not given yet (Ctrl-C
    /// while lines typed ahead wait for room); how many were dropped.
    func dropTypedAhead() -> Int
}

extension PromptEditor {
    /// Not known.
    package var columns: Int? { nil }

    /// None: an editor that gives a line only after the prompt came back holds none typed ahead.
    package func dropTypedAhead() -> Int { 0 }
}

/// What the user did at the prompt.
package enum PromptInput: Equatable, Sendable {
    case line(String)
    case endOfInput
    /// Ctrl-C at a `...>` prompt: the command that goes on is dropped.
    case interrupt
}

/// How the prompt comes back after a line.
package struct PromptResume: Sendable, Equatable {
    /// The line goes on (an open string, list or object): `...> `.
    package var continuing = false
    /// A whole command to keep in the history (a continued one as one entry).
    package var remember: String?

    package init(continuing: Bool = false, remember: String? = nil) {
        self.continuing = continuing
        self.remember = remember
    }
}
