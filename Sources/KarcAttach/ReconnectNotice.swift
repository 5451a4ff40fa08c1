/// The line an attached prompt prints once it is back: that the app's
/// session is new, what the shell asked it to set again and got back
/// (watches, `:trace on`), and what could not come back by name.
struct ReconnectNotice {
    /// What the lost session had, as its last prompt said.
    struct Kept: Equatable {
        var watches: [String] = []
        var tracing = false
        var snapshots: [String] = []
        /// The user asked for an inspector (`--inspect`, `:inspect`): the new session is asked again.
        var inspector = false
    }

    let address: String
    /// What the lost session had.
    let asked: Kept
    /// The watches and trace setting the new session started with.
    let back: (watches: [String], tracing: Bool)
    /// Whether the new session printed its inspector's address (when `asked` had one).
    var inspectorServed = true

    var text: String {
        var line =
            "reconnected to \(address): a new session in the app (its :history, :events, :timing and :diff start over; your line history stays)"
        var returned: [String] = []
        let watchesBack = asked.watches.filter(back.watches.contains)
        if !watchesBack.isEmpty {
            returned.append(watchesBack.count == 1 ? "your watch \(watchesBack[0])" : "your \(watchesBack.count) watches")
        }
        if asked.tracing, back.tracing { returned.append(":trace on") }
        if !returned.isEmpty {
            let subject = returned.joined(separator: " and ")
            line += "; \(subject) \(returned.count == 1 && watchesBack.count <= 1 ? "is" : "are") back"
        }
        let lost = asked.watches.filter { !back.watches.contains($0) }
        if !lost.isEmpty { line += "; not watched again: \(lost.joined(separator: ", ")) (the app said why)" }
        if asked.tracing, !back.tracing { line += "; traces are off (:trace on prints them again)" }
        if !asked.snapshots.isEmpty {
            let names = asked.snapshots.joined(separator: ", ")
            line += "; \(asked.snapshots.count == 1 ? "the snapshot" : "the snapshots") \(names) went with the old session"
        }
        if asked.inspector {
            line +=
                inspectorServed
                ? "; the inspector is a new page, at the address above (the old page ended with the old session)"
                : "; the new session serves no inspector, as the app said above (the old page ended with the old session)"
        }
        return line + "\n"
    }
}
