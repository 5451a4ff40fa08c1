/// A place a session's output goes beside its text: a browser, a test, a
/// recorder. It subscribes once (``ShellSession/subscribe(_:)``) and is told
/// every ``OutputEvent`` the session says, in order, with what the renderer
/// knows of it (``OutputContext``: the command line it belongs to, the span
/// that caused it).
///
/// ```
///  ShellSession ──▶ Renderer ──▶ formatter ──▶ OutputSink   (the text: prompt, script, attached shell)
///                          └───▶ each SessionFront           (in the order they subscribed)
/// ```
///
/// A command line's events come between its ``OutputEvent/begin(seq:text:)``
/// and its ``OutputEvent/done(seq:outcome:)``; what an earlier command
/// caused later (a late reply, a late event) carries that command's `seq`
/// in its context. Events arrive on the session's task, after the text of
/// the same event is written: a front that hands them to another thread
/// copies what it keeps, and never waits (the session does not wait for it).
package protocol SessionFront: AnyObject {
    /// `event`, said in `context`.
    func receive(_ event: OutputEvent, in context: OutputContext)
}

/// A front's subscription, to end it (``ShellSession/unsubscribe(_:)``).
package struct FrontSubscription: Hashable, Sendable {
    package let id: Int
}
