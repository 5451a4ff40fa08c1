import KarcLanguage
import KarcOutput

/// `:events on|off|only TYPE…|mute TYPE…`: which events are printed.
enum MetaEvents: MetaCommand {
    static let name = "events"
    static let arguments = "[on|off|only T…|mute T…]"
    static let summary = "which events are printed (no argument: which are)"
    static let details = [
        ":events only UpdatedAccount   only events of these types (the type's last name is enough)",
        ":events mute Tick Heartbeat   every event but these",
        ":events on / :events off      every event, or none",
        ":events                       which of these is on",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        if position == 0 { return MetaCompletions(candidates: ["on", "off", "only", "mute"]) }
        guard let mode = words.first?.lowercased(), ["only", "mute"].contains(mode) else { return nil }
        return MetaCompletions(candidates: context.eventNames)
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let mode = call.arguments.first else {
            context.renderer.setting(context.renderer.events.setting)
            return .succeeded
        }
        let types = call.arguments.dropFirst()
        for type in types {
            if let message = context.unknownEvent(type.value) { return context.fail(message, column: type.column, in: call) }
        }
        var names: [String] = []
        for type in types where !names.contains(where: { Names.matches($0, type.value) }) { names.append(type.value) }
        switch mode.value.lowercased() {
        case "on": context.renderer.events = .all
        case "off": context.renderer.events = .none
        case "only", "mute":
            guard !names.isEmpty else {
                return context.fail(":events \(mode.value) needs at least one event type", column: mode.column, in: call)
            }
            context.renderer.events = mode.value.lowercased() == "only" ? .only(names) : .mute(names)
        default:
            return context.fail("expected on, off, only or mute after :events, got '\(mode.value)'", column: mode.column, in: call)
        }
        context.confirm(context.renderer.events.setting)
        return .succeeded
    }
}

extension MetaContext {
    /// The event types the shell knows: those the catalog declares and those seen.
    var knownEvents: [String] {
        var names = cluster.catalog.targets.flatMap(\.events)
        for seen in log.words.events where !names.contains(seen) { names.append(seen) }
        return names
    }

    /// Why `name` names no event, when the catalog declares the events its
    /// targets emit (without that, an event not seen yet may still come).
    func unknownEvent(_ name: String) -> String? {
        guard cluster.catalog.targets.contains(where: { !$0.events.isEmpty }) else { return nil }
        let known = knownEvents
        guard !known.contains(where: { Names.namesType(name, $0) }) else { return nil }
        let short = known.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
        return "no target emits an event named '\(name.clipped)'" + Names.didYouMean(name, among: short) + " Events: \(short.joined(separator: ", "))"
    }
}
