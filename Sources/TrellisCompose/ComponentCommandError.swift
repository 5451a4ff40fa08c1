/// Why a mounted component tree did not take an ``EmitSignal`` or ``EmitValue``.
public enum ComponentCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No emitter at `emitter`; `known` lists the tree's emitters.
    case unknownEmitter(emitter: String, known: [String])
    /// The component that holds `emitter` (at `component`) is not active:
    /// a router does not show it. `shown` is each active router's stack.
    case inactive(emitter: String, component: String, shown: [String: [String]])
    /// The emitter takes `expected` values, and got a `got`.
    case wrongValue(emitter: String, expected: String, got: String)

    public var description: String {
        switch self {
        case .unknownEmitter(let emitter, let known):
            return "no emitter '\(emitter)' in the component tree; its emitters: \(known.joined(separator: ", "))"
        case .inactive(let emitter, let component, let shown):
            let where_ = shown.sorted { $0.key < $1.key }.map { "\($0.key) shows \($0.value.joined(separator: " › "))" }
            return "'\(emitter)' is not active: no router shows \(component)" + (where_.isEmpty ? "" : " (\(where_.joined(separator: "; ")))")
        case .wrongValue(let emitter, let expected, let got):
            return "'\(emitter)' emits \(expected) values, not \(got)"
        }
    }
}
