import KarcFronts

/// A live inspector of a shell session in a browser: `karc --inspect` (or
/// any `ShellApp` with `--inspect`) prints its URL, and each browser that
/// opens it watches the session's commands, replies, events and changes of
/// state as they happen.
///
/// ```
///  ShellSession ── OutputEvent ──▶ InspectorFront ── JSON line ──▶ InspectorHub ──▶ InspectorServer ──▶ browsers
///       ▲       └─▶ the text (terminal, pipe), as without it                                     │
///       └── answers between commands ◀── SessionInbox ◀── questions (InspectorAsk) ◀─────────────┘
/// ```
///
/// The front is one subscription on the session's output (`SessionFront`);
/// the session never waits for a browser (one that falls behind is told
/// how many messages it missed).
package final class Inspector: Sendable {
    package let hub: InspectorHub
    package let server: InspectorServer
    /// How many messages a second its fronts make while a session runs fast.
    package let rate: InspectorRate

    private init(hub: InspectorHub, server: InspectorServer, rate: InspectorRate) {
        self.hub = hub
        self.server = server
        self.rate = rate
    }

    /// Starts serving on 127.0.0.1:`port` (0: a free one), with a new token;
    /// the pages' questions go to `inbox`, which the session answers.
    package static func start(
        port: Int = 0, hub: InspectorHub = InspectorHub(), inbox: SessionInbox = SessionInbox(), rate: InspectorRate = .standard
    ) async throws -> Inspector {
        Inspector(hub: hub, server: try await InspectorServer.start(hub: hub, inbox: inbox, port: port), rate: rate)
    }

    /// The page's address, with the token that lets a browser in.
    package var url: String { "http://127.0.0.1:\(server.port)/?token=\(server.token)" }

    /// A front for a session, publishing to this inspector's browsers.
    package func front() -> InspectorFront { InspectorFront(hub: hub, rate: rate) }

    /// Ends the browsers' streams and stops serving, once each page was told
    /// the session ended: a page that reads nothing gets three seconds, one
    /// still reading (a fast script's last commands, a busy machine) up to 20.
    /// A browser on a loaded machine can read nothing for a second (seen
    /// with the tests running eight at once on two cores): cut after one,
    /// its page lost the last thousand commands of a fast script.
    package func stop() async {
        // In a task of its own: a caller that was cancelled (an endpoint shutting down) still gives its pages their grace.
        await Task { [hub, server] in
            // Listening ends first: a page that comes now is not let in only to be told the session ended.
            await server.stopListening()
            hub.finish()
            await server.stop(grace: .seconds(3))
        }.value
    }
}
