import KarcOutput

/// Why the browser inspector did not start.
struct InspectorFailure: Error {
    let message: String

    /// The session has no inspector to start.
    static let unavailable = InspectorFailure(
        message: "this shell cannot serve an inspector: its app turned it off (ClusterEndpoint.Configuration.servesInspector),"
            + " or its session was made without one (KarcShell's Shell.run makes one; docs/inspect.md)")

    /// Its server could not start.
    static func notStarted(_ error: any Error) -> InspectorFailure { InspectorFailure(message: "the inspector could not start: \(error)") }
}

extension ShellSession {
    /// Starts the browser inspector, or finds it started, and subscribes the front it gives: its URL.
    func startInspector() async -> Result<String, InspectorFailure> {
        guard let starter = waits.runtime.inspector else { return .failure(.unavailable) }
        do {
            let started = try await starter.start()
            if let front = started.front { _ = subscribe(front) }
            return .success(started.url)
        } catch {
            return .failure(.notStarted(error))
        }
    }

    /// An inspector asked for as the session starts (`karc attach --inspect`), before any command and
    /// numbered as none: its URL on standard error, as `karc --inspect` prints it. False when it did not start.
    func startInspectorFirst() async -> Bool {
        switch await startInspector() {
        case .success(let url):
            renderer.sink.writeError("inspector: \(url)")
            return true
        case .failure(let failure):
            renderer.error(failure.message, script: nil, line: nil, column: nil)
            return false
        }
    }
}
