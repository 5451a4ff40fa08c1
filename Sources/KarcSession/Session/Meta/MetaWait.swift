import KarcLanguage
import KarcOutput
import KarcRendering

/// `:wait EVENT [timeout]`: waits for an event (a timer's, say), printing
/// what comes meanwhile; fails after the timeout.
enum MetaWait: MetaCommand {
    static let name = "wait"
    /// Its event may have come already, since the last command.
    static let takesArrived = true
    static let arguments = "EVENT [timeout]"
    static let summary = "wait for an event (a timer's, say)"
    static let details = [
        ":wait ReceivedMessage       until an event of that type is printed (the default timeout, --timeout)",
        ":wait ReceivedMessage 3s    at most 3 s; a wait that times out fails the command",
        "What happens meanwhile prints as it comes.",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0 ? MetaCompletions(candidates: context.eventNames) : nil
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let type = call.arguments.first else {
            return context.fail(":wait needs an event type (and optionally a timeout), like :wait ReceivedMessage 5s", in: call)
        }
        if let message = context.unknownEvent(type.value) { return context.fail(message, column: type.column, in: call) }
        var timeout = context.options.timeout
        if let argument = call.arguments.dropFirst().first {
            guard let given = context.duration(argument, in: call) else { return .failed }
            timeout = given
        }
        let ended = await context.follow(until: context.clock.now + timeout) { records in
            records.contains { record in
                if case .event(_, let event) = record.kind { return Names.namesType(type.value, ValueText.typeName(event)) }
                return false
            }
        }
        switch ended {
        case .stopped:
            await context.settle()
            context.printArrived(background: true)
            return .succeeded
        case .deadline:
            return context.fail("timed out after \(ShellDuration.describe(timeout)) waiting for \(type.value)", column: type.column, in: call)
        case .interrupted:
            return context.fail("interrupted while waiting for \(type.value)", column: type.column, in: call, outcome: .interrupted)
        }
    }
}
