/// `:timing on|off`: whether each command's time is printed after it.
enum MetaTiming: MetaCommand {
    static let name = "timing"
    static let arguments = "on|off"
    static let summary = "print how long each command took"

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0 ? MetaCompletions(candidates: ["on", "off"]) : nil
    }

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        switch call.arguments.first?.value.lowercased() {
        case "on": session.renderer.showsTiming = true
        case "off": session.renderer.showsTiming = false
        default: return session.fail("expected :timing on or :timing off", in: call)
        }
        return .succeeded
    }
}
