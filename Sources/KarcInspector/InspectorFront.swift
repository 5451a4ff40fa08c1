import KarcFronts
import KarcOutput
import KarcRendering

/// The inspector's front on a session: each output event as the JSON line
/// `--json` prints for it (docs/shell.md), published to the browsers
/// (``InspectorHub``); a command's start, which the text does not print,
/// as `{"kind":"begin","seq":N,"text":"…"}`; its end with how long it took
/// (`"milliseconds"` on its `done`).
///
/// Called on the session's task, in order; it makes the line there and
/// hands it over, never waiting for a browser. While the session runs
/// faster than a page can show (a piped script), it makes lines within a
/// budget (``InspectorBudget``), a command at a time: a command the budget
/// has no room for when it begins is left out whole (no row that never
/// ends), unless it fails, so a page always shows what went wrong. What it
/// left out is counted on the hub (``InspectorHub/skip(messages:commands:)``),
/// which tells the browsers before the next message they get.
package final class InspectorFront: SessionFront {
    private let hub: InspectorHub
    /// Its own formatter: a state's patch is made against the last state this front published.
    private var formatter = JSONFormatter()
    private let lines = OutputSink(capturing: ())
    private var budget: InspectorBudget
    private let now: () -> Duration
    /// When each running command began, by number: a page shows how long each took.
    private var began: [Int: Duration] = [:]
    /// The command being left out, its line (said after all if it fails),
    /// and how many of its messages were left out: handed to the hub once, at
    /// its end, not a lock a message.
    private var hidden: (seq: Int, text: String, messages: Int)?
    /// The commands shown (their line made), by number, with how many of their messages were made:
    /// a shown command is shown whole, its state changes too, up to a bucket's worth of messages.
    private var shown: [Int: Int] = [:]

    /// A front for `hub`'s browsers that makes at most `rate` messages a second past a burst of as many,
    /// timed by `now` (the time since any origin; the continuous clock unless given).
    package convenience init(hub: InspectorHub, rate: InspectorRate = .standard, now: (() -> Duration)? = nil) {
        let start = ContinuousClock.now
        self.init(hub: hub, capacity: rate.perSecond, perSecond: rate.perSecond, now: now ?? { .now - start })
    }

    /// A front for `hub`'s browsers, with a budget of `capacity` filling at `perSecond`, on a clock `now` reads (the time since any origin).
    package init(hub: InspectorHub, capacity: Int, perSecond: Int, now: @escaping () -> Duration) {
        self.hub = hub
        budget = InspectorBudget(capacity: capacity, perSecond: perSecond)
        self.now = now
    }

    package func receive(_ event: OutputEvent, in context: OutputContext) {
        // Timed whether or not the command is shown: a command's time is its own.
        var took: Duration?
        switch event {
        case .begin(let seq, _): began[seq] = now()
        case .done(let seq, _): took = began.removeValue(forKey: seq).map { now() - $0 }
        default: break
        }
        if let hidden, context.seq == hidden.seq {
            guard Self.fails(event) else {
                forgetIfState(event)
                if case .done = event {
                    self.hidden = nil
                    hub.skip(messages: hidden.messages, commands: 1)
                } else {
                    self.hidden?.messages += 1
                }
                return
            }
            // A failure is shown though its command was left out: its line first, then what went wrong.
            self.hidden = nil
            budget.spend(at: now())
            hub.skip(messages: hidden.messages, commands: 0)
            hub.publish(JSONLine.write(["kind": "begin", "seq": hidden.seq, "text": hidden.text] as JSONObject))
            return make(event, in: context, took: took)
        }
        switch event {
        case .begin(let seq, let text):
            guard budget.take(at: now()) else {
                hidden = (seq, text, 0)
                return
            }
            shown[seq] = 0
        case .done(let seq, _):
            // A shown command always ends on the page.
            budget.spend(at: now())
            shown[seq] = nil
        default:
            // A shown command's output is made whatever is left (what follows waits for it to be paid
            // back), so its row never lacks a change; past a bucket's worth, it is as output between commands.
            if let seq = context.seq, let made = shown[seq], Double(made) < budget.capacity {
                shown[seq] = made + 1
                budget.spend(at: now())
            } else if !budget.take(at: now()) {
                forgetIfState(event)
                return hub.skip(messages: 1, commands: 0)
            }
        }
        make(event, in: context, took: took)
    }

    /// A failed command's output: what makes its row on the page an error.
    private static func fails(_ event: OutputEvent) -> Bool {
        switch event {
        case .error, .failedReply: true
        case .done(_, let outcome): outcome != "ok"
        default: false
        }
    }

    /// The next change of a state is told whole, not as a patch against one the page never got.
    private func forgetIfState(_ event: OutputEvent) {
        if case .stateChange = event { formatter.forget() }
    }

    private func make(_ event: OutputEvent, in context: OutputContext, took: Duration?) {
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
