import KarcLanguage
import KarcOutput

/// `:sleep DURATION`: waits (Ctrl-C ends it), printing what happens
/// meanwhile as it comes: each change on its own, as at the prompt, not
/// folded with the others of the sleep (two changes a second apart, or one
/// and its undo, are two diffs, not one or none).
enum MetaSleep: MetaCommand {
    static let name = "sleep"
    /// Prints what comes as it comes, what came before too.
    static let takesArrived = true
    static let arguments = "DURATION"
    static let summary = "wait (250ms, 2s, 1m), printing what happens meanwhile"
    static let details = [
        ":sleep 2s                   let timers and periodic work run for 2 s, printing what they do as they do it",
        "Units: ms, s, m (at most 24 hours).",
    ]

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let argument = call.arguments.first else {
            return context.fail(":sleep needs \(ShellDuration.expectation)", in: call)
        }
        guard let duration = context.duration(argument, in: call) else { return .failed }
        // What came together is one batch: each change printed as it came, not folded with the others of the sleep.
        _ = await context.follow(until: context.clock.now + duration)
        let settled = context.isInterrupted ? false : await context.settleUnlessInterrupted()
        // What the cluster did while it settled, the same whether the sleep ended or Ctrl-C did.
        context.printArrived(background: true)
        guard settled else { return context.fail("interrupted", column: call.name.column, in: call, outcome: .interrupted) }
        return .succeeded
    }
}

extension MetaContext {
    /// The duration `argument` gives (`250ms`, `2s`), or nil once the error saying what is accepted is printed.
    func duration(_ argument: Located<String>, in call: MetaCall) -> Duration? {
        if let duration = ShellDuration.parse(argument.value) { return duration }
        _ = fail("expected \(ShellDuration.expectation), got '\(argument.value)'", column: argument.column, in: call)
        return nil
    }
}
