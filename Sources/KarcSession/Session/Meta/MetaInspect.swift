/// `:inspect`: watch this session in a browser; prints the inspector's
/// URL, starting it if it was not (`--inspect` starts it with the shell).
enum MetaInspect: MetaCommand {
    static let name = "inspect"
    static let arguments = ""
    static let summary = "watch this session in a browser: prints the inspector's URL (on 127.0.0.1, with a one-time token)"
    static let details = [
        "The page shows each command as it runs, with its reply, events, changes of state and outcome.",
        "Select a command there to see the states after it, why it did what it did, and go back to it; its box runs lines here.",
        "It is served until the shell ends; --inspect starts it with the shell. docs/inspect.md says who gets in.",
    ]
    /// A replay would start a server: not kept by :save.
    static let isReplayed = false

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        if let extra = call.arguments.first { return context.fail(":inspect takes no argument", column: extra.column, in: call) }
        switch await context.startInspector() {
        case .success(let url):
            context.renderer.log("inspector: \(url)")
            return .succeeded
        case .failure(let failure):
            return context.fail(failure.message, in: call)
        }
    }
}
