import KarcLanguage
import KarcOutput

/// `:sleep DURATION`: waits (Ctrl-C ends it), then prints what happened meanwhile.
enum MetaSleep: MetaCommand {
    static let name = "sleep"
    static let arguments = "DURATION"
    static let summary = "wait (250ms, 2s, 1m), then print what happened"
    static let details = [
        ":sleep 2s                   let timers and periodic work run for 2 s, printing what they do",
        "Units: ms, s, m (at most 24 hours).",
    ]

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let argument = call.arguments.first else {
            return context.fail(":sleep needs \(ShellDuration.expectation)", in: call)
        }
        guard let duration = context.duration(argument, in: call) else { return .failed }
        context.renderer.sink.flush()
        let slept = Pending<Bool>()
        let clock = context.waits.runtime.clock
        let alarm = clock.arm(at: clock.now + duration) { slept.finish(true) }
        let finished = await context.interrupter.whileWaiting(onInterrupt: { slept.finish(nil) }) { await slept.value() }
        if finished == nil { clock.disarm(alarm) }
        let (cluster, timeout) = (context.cluster, context.options.timeout)
        let settled = finished != nil ? await context.waits.interruptible({ await cluster.settled(timeout: timeout) }) != nil : false
        // What the cluster did while the shell slept, the same whether the sleep ended or Ctrl-C did.
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
