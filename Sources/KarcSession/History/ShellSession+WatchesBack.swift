import KarcHistory
import KarcRendering

extension ShellSession {
    /// Sets the watches a session starts with (``ShellOptions/watches``:
    /// an attached shell that reconnected asks for its own back), quietly;
    /// one that names a part the cluster no longer has (a target, or a field
    /// its state's type lost: an app restarted in a new version) is said, as
    /// an error that does not fail the session (the user did not type it now).
    /// Checked as `:watch` checks what is typed (``checkedPart(_:in:)``).
    func watchAgain(_ texts: [String]) async {
        let targets = cluster.catalog.targets.map(\.name)
        for text in texts {
            switch WatchedPart.parse(text, targets: targets) {
            case .success(let part):
                if case .failure(let error)? = await value(of: part), error.neverThere {
                    refuseAgain(text, error)
                } else {
                    _ = states.watches.add(part.watch)
                }
            case .failure(let error): refuseAgain(text, error)
            }
        }
    }

    private func refuseAgain(_ text: String, _ error: StatePath.PathError) {
        renderer.error("your watch \(text) could not be set again: \(error.message)", script: nil, line: nil, column: nil)
    }

    /// Tells the prompt what it keeps across a reconnection: the watches and whether traces are printed.
    func noteWhatComesBack() {
        log.words.note(watches: states.watches.all.map(\.text), tracing: renderer.showsTraces)
    }
}
