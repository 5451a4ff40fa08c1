/// `:reset`: puts the whole cluster back as it started, and prints the changes.
enum MetaReset: MetaCommand {
    static let name = "reset"
    static let arguments = ""
    static let summary = "put every target back as the cluster started (its reset), printing what changed"
    static let details = [
        "Value stores take back their first model, Karc models are set up again; the changes print as a command's would.",
        "What the cluster did outside itself (a message sent, a file written) is not undone.",
    ]

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        if let extra = call.arguments.first { return session.fail(":reset takes no arguments", column: extra.column, in: call) }
        do {
            try await session.cluster.reset()
        } catch {
            return session.fail("cannot reset: \(error)", in: call)
        }
        _ = await session.cluster.settled(timeout: session.options.timeout)
        let origin = TestStep.Origin(script: call.location.script, line: call.location.line, text: ":reset")
        session.log.keep(.reset(origin: origin), at: session.log.nextStep)
        session.printRecords(session.takeRecords())
        if session.renderer.changesPrinted == 0, session.renderer.diffMode != .off { session.renderer.unchanged() }
        return .succeeded
    }
}
