import KarcFronts
import KarcSynchronization

/// Starts one inspector for a shell when first asked (`--inspect`, or
/// `:inspect` at the prompt), gives its URL after that, and stops it when
/// the shell ends.
package final class InspectorStarter: InspectorStarting {
    private let started = KarcMutex<Inspector?>(nil)
    package let inbox: SessionInbox
    /// The port it listens on, on 127.0.0.1; 0: any free one.
    private let port: Int

    /// `readOnly`: its pages may look but not act (``SessionInbox/isReadOnly``); `port`: 0 for any free one.
    package init(readOnly: Bool = false, port: Int = 0) {
        inbox = SessionInbox(readOnly: readOnly)
        self.port = port
    }

    package func start() async throws -> sending InspectorStarted {
        if let running = started.withLock({ $0 }) { return InspectorStarted(url: running.url, front: nil) }
        // Read as it starts: a rate that is not one is said where the inspector's failure to start is.
        let inspector = try await Inspector.start(port: port, inbox: inbox, rate: try InspectorRate())
        // One session asks at a time; were there two, the first to finish is the one kept.
        let kept = started.withLock { current -> Inspector in
            if let current { return current }
            current = inspector
            return inspector
        }
        guard kept === inspector else {
            await inspector.stop()
            return InspectorStarted(url: kept.url, front: nil)
        }
        return InspectorStarted(url: inspector.url, front: inspector.front())
    }

    /// The running inspector's URL, if one was started.
    package var url: String? { started.withLock { $0?.url } }

    /// Stops the inspector, if one was started: its pages say the session ended.
    package func stop() async {
        inbox.close()
        await started.withLock { $0 }?.stop()
    }
}
