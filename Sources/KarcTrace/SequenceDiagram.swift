import KarcRendering

/// A flow as a sequence diagram: one lifeline a target (and one for the
/// shell, whose commands start the flows), and in the order they happened,
/// an arrow for each send, reply and failure, and a mark on its lifeline for
/// each event, change of state and redirect. Drawn for a terminal
/// (``lines(width:)``, `:seq`) or as Mermaid (``mermaid``, `:export-diagram`).
package struct SequenceDiagram {
    package struct Message: Equatable {
        package enum Style: String { case send, reply, failure, event, state, redirect }
        /// Indices into ``SequenceDiagram/participants``; equal for a mark on one lifeline.
        package let from: Int
        package let to: Int
        package let text: String
        package let style: Style
        /// It came after the command that caused it had ended.
        package let late: Bool
        /// Shorter ways to say ``text``, best first, for a terminal too narrow
        /// for it: a send's command without its target (the arrow ends on the
        /// target's lifeline), `changed` for `state changed`.
        package var shorter: [String] = []
    }

    /// Lifelines, in the order they first appear (`shell` first when a command started a flow).
    package let participants: [String]
    package let messages: [Message]

    /// Who sends a flow that no command of the session started.
    package static let app = "app"
    package static let shell = "shell"

    /// The diagram of `recordings` (one a command, in order); `label` names a send.
    package init(_ recordings: [TraceBook.Recording], label: (any Sendable, String?) -> String) {
        var participants: [String] = []
        var messages: [Message] = []
        func index(_ name: String) -> Int {
            if let found = participants.firstIndex(of: name) { return found }
            participants.append(name)
            return participants.count - 1
        }
        for recording in recordings {
            var targetOf: [UInt64: String] = [:]
            var callerOf: [UInt64: String] = [:]
            for (position, hop) in recording.hops.enumerated() where hop.confirmed {
                let late = recording.lateFrom.map { position >= $0 } ?? false
                func add(_ from: String, _ to: String, _ text: String, _ style: Message.Style, shorter: [String] = []) {
                    let from = index(from)
                    messages.append(Message(from: from, to: index(to), text: text, style: style, late: late, shorter: shorter))
                }
                let own = targetOf[hop.span] ?? Self.caller(of: hop, in: recording, targets: targetOf)
                switch hop.kind {
                case .sent(let action, let target):
                    let caller = Self.caller(of: hop, in: recording, targets: targetOf)
                    let target = target.map { $0.split(separator: ",").first.map(String.init) ?? $0 } ?? caller
                    targetOf[hop.span] = target
                    callerOf[hop.span] = caller
                    let name = label(action, target)
                    let command = name.hasPrefix(target + ".") ? String(name.dropFirst(target.count + 1)) : nil
                    add(caller, target, name, .send, shorter: command.map { [$0] } ?? [])
                case .replied(let reply):
                    add(own, callerOf[hop.span] ?? own, "→ " + ValueText.inline(reply, limit: 50), .reply)
                case .failed(let error):
                    add(own, callerOf[hop.span] ?? own, "failed: \(error)", .failure)
                case .handled:
                    continue
                case .event(let source, let value):
                    add(source, source, "event " + ValueText.inline(value, limit: 50), .event)
                case .state(let target):
                    add(target, target, "state changed", .state, shorter: ["changed"])
                case .redirected(let by, let to):
                    let replacement = to.isEmpty ? "nothing" : to.map { ValueText.inline($0, limit: 40) }.joined(separator: ", ")
                    add(own, own, "redirected by \(by) → \(replacement)", .redirect)
                }
            }
        }
        self.participants = participants
        self.messages = messages
    }

    /// Who sent the span `hop` is in: the target of the send that caused
    /// it, the shell for a command of the session, else the app.
    private static func caller(of hop: TraceBook.Hop, in recording: TraceBook.Recording, targets: [UInt64: String]) -> String {
        if let parent = hop.parent, let target = targets[parent] { return target }
        return recording.command != nil ? shell : app
    }
}
