/// How the shell prints a target's change of state.
public enum DiffMode: String, Sendable, CaseIterable {
    /// The diff of the state before against the state after.
    case full = "on"
    /// One line a changed target: how many of its parts changed.
    case summary
    /// Nothing (a bulk script that only needs replies, events and errors).
    case off
}
