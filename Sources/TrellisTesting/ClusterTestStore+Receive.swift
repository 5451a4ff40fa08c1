import CustomDump
import Testing

extension ClusterTestStore {
    /// Asserts that the next event not yet asserted is `expected` (from
    /// `source`, when named), waiting for it at most ``timeout``. A
    /// different one fails the test with custom-dump's diff, and is consumed.
    public func receive<Event: Equatable & Sendable>(
        _ expected: Event, from source: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        guard let received = await nextEvent(sourceLocation) else { return }
        checkSource(source, received.source, sourceLocation)
        guard let event = received.event as? Event else {
            Issue.record(
                "received \(String(customDumping: received.event)) from '\(received.source)', expected \(String(customDumping: expected))",
                sourceLocation: sourceLocation)
            return
        }
        if event != expected {
            let difference = diff(expected, event, format: .proportional).map { "\n\($0)" } ?? ""
            Issue.record("received another event from '\(received.source)': (−expected, +received)\(difference)", sourceLocation: sourceLocation)
        }
    }

    /// Asserts that the next event is of type `Event`.
    public func receive<Event: Sendable>(_ type: Event.Type, from source: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async {
        await receive(type, from: source, sourceLocation: sourceLocation) { _ in }
    }

    /// Asserts that the next event is of type `Event`, and checks it with `check`.
    public func receive<Event: Sendable>(
        _ type: Event.Type, from source: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ check: (Event) throws -> Void
    ) async rethrows {
        guard let received = await nextEvent(sourceLocation) else { return }
        checkSource(source, received.source, sourceLocation)
        guard let event = received.event as? Event else {
            Issue.record(
                "received \(String(customDumping: received.event)) from '\(received.source)', expected a \(Event.self)",
                sourceLocation: sourceLocation)
            return
        }
        try check(event)
    }

    /// Asserts that the next event dumps (custom-dump) as `expected`: for an
    /// event that is not `Equatable`, or one a generated test cannot build.
    public func receive(dumped expected: String, from source: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async {
        guard let received = await nextEvent(sourceLocation) else { return }
        checkSource(source, received.source, sourceLocation)
        let dumped = String(customDumping: received.event)
        if dumped != expected {
            let difference = diff(expected, dumped, format: .proportional).map { "\n\($0)" } ?? ""
            Issue.record("received another event from '\(received.source)': (−expected, +received)\(difference)", sourceLocation: sourceLocation)
        }
    }

    private func checkSource(_ expected: String?, _ received: String, _ sourceLocation: SourceLocation) {
        if let expected, expected != received {
            Issue.record("the event came from '\(received)', not from '\(expected)'", sourceLocation: sourceLocation)
        }
    }
}
