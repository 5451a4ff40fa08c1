import KarcOutput

/// Starts the browser inspector of a session (`:inspect`) where the session
/// runs beside something that can serve one: KarcShell's `Shell.run`, and
/// KarcEndpoint for an attached shell's session, both over KarcInspector.
/// A session serves nothing itself.
package protocol InspectorStarting: Sendable {
    /// The inspector's URL, started now if it was not; with the front the
    /// session subscribes when this call started it (nil when it ran already).
    func start() async throws -> sending InspectorStarted

    /// Where the inspector's pages ask the session things (a state's parts,
    /// a trace) and send it lines; the session answers between commands.
    var inbox: SessionInbox { get }

    /// Stops the inspector, if it was started: its pages say the session ended.
    func stop() async
}

/// What ``InspectorStarting/start()`` gives.
package struct InspectorStarted {
    /// The page's address, with its token.
    package let url: String
    /// The front to subscribe, the first time.
    package let front: (any SessionFront)?

    package init(url: String, front: (any SessionFront)?) {
        self.url = url
        self.front = front
    }
}
