import KarcOutput

/// The smallest front: it writes down the flow of each command line as a
/// browser's timeline would show it, one short line an event. It reaches
/// the session only through ``SessionFront``, and imports KarcOutput, not
/// the session: a front is a module of its own on the session's output.
final class FlowRecorder: SessionFront {
    private(set) var lines: [String] = []

    func receive(_ event: OutputEvent, in context: OutputContext) {
        let seq = context.seq.map { "#\($0) " } ?? ""
        switch event {
        case .begin(let number, let text): lines.append("#\(number) \(text)")
        case .reply(let target, let value): lines.append("\(seq)reply from \(target): \(value)")
        case .event(let source, let value, _, _): lines.append("\(seq)event from \(source): \(type(of: value))")
        case .stateChange(let change): lines.append("\(seq)state of \(change.target) changed")
        case .error(let message, _): lines.append("\(seq)error: \(message)")
        case .done(let number, let outcome): lines.append("#\(number) \(outcome)")
        default: lines.append("\(seq)\(Self.name(of: event))")
        }
    }

    /// The case's name, for the events this front does not spell out.
    private static func name(of event: OutputEvent) -> String {
        String(describing: event).prefix { $0 != "(" }.description
    }
}
