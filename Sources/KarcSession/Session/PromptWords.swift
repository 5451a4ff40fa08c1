import KarcAsync
import KarcSynchronization

/// What a prompt completes that only its session knows: the event types
/// printed so far (`:wait`, `:events`) and the names of the snapshots kept
/// (`:restore`, `:snapshot save`). The session writes them as it goes; the
/// prompt's completion reads them on the editor's thread (or, attached,
/// they travel with each prompt to the shell).
package final class PromptWords: Sendable {
    private let words = KarcMutex<(events: [String], snapshots: [String])>(([], []))

    package init() {}

    /// An event type printed.
    func saw(event name: String) {
        words.withLock { if !$0.events.contains(name) { $0.events.append(name) } }
    }

    /// The snapshots kept now, by name.
    func kept(snapshots names: [String]) {
        words.withLock { $0.snapshots = names }
    }

    /// Both lists as a session elsewhere says them (an attached shell, from the app's prompt).
    package func replace(events: [String], snapshots: [String]) {
        words.withLock { $0 = (events, snapshots) }
    }

    /// What an attached shell asks for again after a reconnection: the
    /// watches (as `:watch` takes them) and whether traces are printed.
    private let comesBack = KarcMutex<(watches: [String], tracing: Bool)>(([], false))

    /// The watches and the trace setting now.
    func note(watches: [String], tracing: Bool) {
        comesBack.withLock { $0 = (watches, tracing) }
    }

    /// The watches (as `:watch` takes them) and whether traces are printed, as last noted.
    package var kept: (watches: [String], tracing: Bool) { comesBack.withLock { $0 } }

    /// Both lists, read together.
    package var all: (events: [String], snapshots: [String]) { words.withLock { $0 } }

    package var events: [String] { words.withLock { $0.events } }
    package var snapshots: [String] { words.withLock { $0.snapshots } }
}
