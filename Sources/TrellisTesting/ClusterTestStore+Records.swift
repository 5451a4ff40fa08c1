import CustomDump
import Testing
import Trellis

/// What the cluster did, as the store takes it in: events to receive, states
/// changed since they were last asserted.
extension ClusterTestStore {
    /// The next event not asserted yet, waiting at most ``timeout`` for one.
    func nextEvent(_ sourceLocation: SourceLocation) async -> (source: String, event: any Sendable)? {
        take()
        let deadline = ContinuousClock.now + timeout
        while events.isEmpty, ContinuousClock.now < deadline {
            guard let batch = await nextBatch(before: deadline) else { break }
            absorb(batch)
        }
        guard !events.isEmpty else {
            Issue.record("expected an event, and none came within \(timeout)", sourceLocation: sourceLocation)
            return nil
        }
        return events.removeFirst()
    }

    func nextBatch(before deadline: ContinuousClock.Instant) async -> [ClusterRecord]? {
        let observation = observation
        return await withTaskGroup(of: [ClusterRecord]?.self) { group in
            group.addTask { await observation.nextAvailable() }
            // A guard against a wait that never ends, not a pause: the test's time is its clock's.
            group.addTask {
                try? await Task.sleep(until: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    func settle(_ sourceLocation: SourceLocation) async {
        if !(await cluster.settled(timeout: timeout)) {
            Issue.record("the cluster was still busy \(timeout) after the send (raise the store's timeout)", sourceLocation: sourceLocation)
        }
        take()
    }

    func take() {
        absorb(observation.takeAvailable())
    }

    func absorb(_ records: [ClusterRecord]) {
        for record in records {
            switch record.kind {
            case .emitted(let source, let event):
                events.append((source, event))
            case .stateChanged(let source, _, let new):
                if changed[source] == nil { changeOrder.append(source) }
                changed[source] = new
            case .failed(0, let error):
                Issue.record("work the cluster started on its own failed: \(error)")
            case .lost(let count):
                Issue.record("\(count) records were dropped: the store fell behind the cluster")
            case .sent, .replied, .handled, .redirected, .failed:
                break
            }
        }
    }

    var unassertedEvents: String {
        events.map { "  \($0.source): " + String(customDumping: $0.event) }.joined(separator: "\n")
    }

    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
