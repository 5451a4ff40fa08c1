import KarcOutput
import KarcRendering
import KarcSession

/// The inspector's front on a session: each output event as the JSON line
/// `--json` prints for it (docs/shell.md), published to the browsers
/// (``InspectorHub``); a command's start, which the text does not print,
/// as `{"kind":"begin","seq":N,"text":"…"}`; its end with how long it took
/// (`"milliseconds"` on its `done`).
///
/// Called on the session's task, in order; it makes the line there and
/// hands it over, never waiting for a browser. While the session runs
/// faster than a page can show (a piped script), it makes lines within a
/// budget (``InspectorBudget``) and says how many it skipped
/// (`{"kind":"skipped","count":N}`) when it makes the next.
package final class InspectorFront: SessionFront {
    private let hub: InspectorHub
    /// Its own formatter: a state's patch is made against the last state this front published.
    private var formatter = JSONFormatter()
    private let lines = OutputSink(capturing: ())
    private var budget: InspectorBudget
    private let now: () -> Duration
    private var skipped = 0
    /// When each running command began, by number: a page shows how long each took.
    private var began: [Int: Duration] = [:]

    /// A front for `hub`'s browsers, with `budget`, on a clock `now` reads (the time since any origin).
    package convenience init(hub: InspectorHub) {
        let start = ContinuousClock.now
        self.init(hub: hub, capacity: 1_000, perSecond: 1_000, now: { .now - start })
    }

    package init(hub: InspectorHub, capacity: Int, perSecond: Int, now: @escaping () -> Duration) {
        self.hub = hub
        budget = InspectorBudget(capacity: capacity, perSecond: perSecond)
        self.now = now
    }

    package func receive(_ event: OutputEvent, in context: OutputContext) {
        // Timed whether or not the budget lets the message through: a command's time is its own.
        var took: Duration?
        switch event {
        case .begin(let seq, _): began[seq] = now()
        case .done(let seq, _): took = began.removeValue(forKey: seq).map { now() - $0 }
        default: break
        }
        guard budget.take(at: now()) else {
            skipped += 1
            // The next change of a state is told whole, not as a patch against one the page never got.
            if case .stateChange = event { formatter.forget() }
            return
        }
        if skipped > 0 {
            hub.publish(#"{"kind":"skipped","count":\#(skipped)}"#)
            skipped = 0
        }
        if case .begin(let seq, let text) = event {
            let object: JSONObject = ["kind": "begin", "seq": seq, "text": text]
            hub.publish(JSONLine.write(object))
            return
        }
        if case .done(let seq, let outcome) = event, let took {
            // The `done` line with the command's time, which `--json` leaves to `:timing`.
            let object: JSONObject = ["kind": "done", "seq": seq, "outcome": outcome, "milliseconds": Milliseconds.value(took)]
            hub.publish(JSONLine.write(object))
            return
        }
        formatter.write(event, in: context, to: lines)
        let written = lines.takeCaptured()
        guard !written.isEmpty else { return }
        for line in written.split(separator: UInt8(ascii: "\n")) { hub.publish(String(decoding: line, as: UTF8.self)) }
    }
}
