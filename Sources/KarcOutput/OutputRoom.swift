/// Whether what a session prints has somewhere to go: an attached shell
/// that stopped reading leaves its session's output no room (the app holds
/// a bounded amount for it, ``OutputSink/init(forwarding:room:)``).
///
/// Without room the session runs nothing more: its next command waits, and
/// its prompt prints nothing, until there is room again. It keeps taking
/// the cluster's records meanwhile (bounded, a target's changes folded into
/// one), so the cluster holds nothing for a shell that stalled and the
/// app's own sends go on at their speed.
package protocol OutputRoom: Sendable {
    /// Whether more output may be written now.
    var hasRoom: Bool { get }
    /// Calls `wake` once there is room (at once if there is). Only the last
    /// `wake` given is kept: a session waits for room in one place at a time.
    func onRoom(_ wake: @escaping @Sendable () -> Void)
}
