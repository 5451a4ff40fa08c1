import KarcOutput
import KarcRendering
import KarcSession

/// The inspector's front on a session: each output event as the JSON line
/// `--json` prints for it (docs/shell.md), published to the browsers
/// (``InspectorHub``); a command's start, which the text does not print,
/// as `{"kind":"begin","seq":N,"text":"…"}`.
///
/// Called on the session's task, in order; it makes the line there and
/// hands it over, never waiting for a browser.
package final class InspectorFront: SessionFront {
    private let hub: InspectorHub
    /// Its own formatter: a state's patch is made against the last state this front published.
    private var formatter = JSONFormatter()
    private let lines = OutputSink(capturing: ())

    package init(hub: InspectorHub) {
        self.hub = hub
    }

    package func receive(_ event: OutputEvent, in context: OutputContext) {
        if case .begin(let seq, let text) = event {
            let object: JSONObject = ["kind": "begin", "seq": seq, "text": text]
            hub.publish(JSONLine.write(object))
            return
        }
        formatter.write(event, in: context, to: lines)
        let written = lines.takeCaptured()
        guard !written.isEmpty else { return }
        for line in written.split(separator: UInt8(ascii: "\n")) { hub.publish(String(decoding: line, as: UTF8.self)) }
    }
}
