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
        let url: String?
        do {
            url = try await context.startInspector()
        } catch {
            return context.fail("the inspector could not start: \(error)", in: call)
        }
        guard let url else {
            return context.fail(
                "this shell cannot serve an inspector: its app turned it off (ClusterEndpoint.Configuration.servesInspector),"
                    + " or its session was made without one (KarcShell's Shell.run makes one; docs/inspect.md)", in: call)
        }
        context.renderer.log("inspector: \(url)")
        return .succeeded
    }
}
