extension OutputEvent {
    /// What `:reset` did, after the diffs of its changes.
    package struct ResetDone {
        /// The targets whose state the reset changed, in the order their diffs came.
        package let changed: [String]
        /// The targets it could not reset (`:reset --partial`), left as they are.
        package let left: [String]

        package init(changed: [String], left: [String]) {
            self.changed = changed
            self.left = left
        }
    }
}

extension ReadableFormatter {
    /// `reset  changed articles, identity`, and the targets left as they are.
    package func reset(_ reset: OutputEvent.ResetDone, to sink: OutputSink) {
        let nothing = reset.left.isEmpty ? "nothing changed: every target was as it started" : "nothing changed"
        let changed = reset.changed.isEmpty ? nothing : "changed " + reset.changed.joined(separator: ", ")
        sink.write(style.state("reset") + "  " + changed)
        if !reset.left.isEmpty { sink.write(style.dim("  left as they are, they cannot be reset: " + reset.left.joined(separator: ", "))) }
    }
}
