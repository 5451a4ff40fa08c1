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

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        guard let argument = call.arguments.first else {
            return session.fail(":sleep needs \(ShellDuration.expectation)", in: call)
        }
        guard let duration = session.duration(argument, in: call) else { return .failed }
        session.renderer.sink.flush()
        let slept = Pending<Bool>()
        let clock = session.waits.runtime.clock
        let alarm = clock.arm(at: clock.now + duration) { slept.finish(true) }
        let finished = await session.interrupter.whileWaiting(onInterrupt: { slept.finish(nil) }) { await slept.value() }
        if finished == nil { clock.disarm(alarm) }
        let (cluster, timeout) = (session.cluster, session.options.timeout)
        let settled = finished != nil ? await session.waits.interruptible({ await cluster.settled(timeout: timeout) }) != nil : false
        // What the cluster did while the shell slept, the same whether the sleep ended or Ctrl-C did.
        session.printArrived(background: true)
        guard settled else { return session.fail("interrupted", column: call.name.column, in: call, outcome: .interrupted) }
        return .succeeded
    }
}

extension ShellSession {
    /// The duration `argument` gives (`250ms`, `2s`), or nil once the error saying what is accepted is printed.
    func duration(_ argument: Located<String>, in call: MetaCall) -> Duration? {
        if let duration = ShellDuration.parse(argument.value) { return duration }
        _ = fail("expected \(ShellDuration.expectation), got '\(argument.value)'", column: argument.column, in: call)
        return nil
    }
}
