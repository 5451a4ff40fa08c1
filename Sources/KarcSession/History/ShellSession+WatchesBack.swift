import KarcRendering

extension ShellSession {
    /// Sets the watches a session starts with (``ShellOptions/watches``:
    /// an attached shell that reconnected asks for its own back), quietly;
    /// one that names a part the cluster no longer has is said, as an error
    /// that does not fail the session (the user did not type it now).
    func watchAgain(_ texts: [String]) {
        let targets = cluster.catalog.targets.map(\.name)
        for text in texts {
            switch WatchedPart.parse(text, targets: targets) {
            case .success(let part): _ = watches.add(part.watch)
            case .failure(let error):
                renderer.error("your watch \(text) could not be set again: \(error.message)", script: nil, line: nil, column: nil)
            }
        }
    }

    /// Tells the prompt what it keeps across a reconnection: the watches and whether traces are printed.
    func noteWhatComesBack() {
        log.words.note(watches: watches.all.map(\.text), tracing: renderer.showsTraces)
    }
}
