import KarcHistory
import KarcOutput
import KarcRendering

/// `:unwatch PATH|all`: ends watches.
enum MetaUnwatch: MetaCommand {
    static let name = "unwatch"
    static let arguments = "target[.path]…|all"
    static let summary = "stop watching a part (all: every watch)"
    static let details = [
        ":unwatch articles.items[3].likes   ends that watch",
        ":unwatch all                       ends every watch",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        MetaCompletions(candidates: ["all"] + context.partPaths(words[position]), suffix: "")
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard !call.arguments.isEmpty else { return context.fail(":unwatch takes what to stop watching, or all", in: call) }
        if call.arguments.count == 1, call.arguments[0].value.lowercased() == "all" {
            let removed = context.updateStates { $0.watches.remove { _ in true } }
            context.renderer.log(removed.isEmpty ? "no watches to end" : "stopped watching " + removed.map(\.text).joined(separator: ", "))
            return .succeeded
        }
        var ended: [Watches.Watch] = []
        for argument in call.arguments {
            guard let part = context.watchedPart(argument, in: call) else { return .failed }
            let matching = context.states.watches.all.filter {
                $0.target == part.target && $0.path.count == part.path.count && zip($0.path, part.path).allSatisfy(StatePath.matches)
            }
            guard !matching.isEmpty else {
                let list = context.states.watches.all.map(\.text)
                return context.fail(
                    "not watching \(part.watch.text); " + (list.isEmpty ? "nothing is watched" : "watching " + list.joined(separator: ", ")),
                    column: argument.column, in: call)
            }
            ended += matching
        }
        let removed = context.updateStates { $0.watches.remove { watch in ended.contains(watch) } }
        context.renderer.log("stopped watching " + removed.map(\.text).joined(separator: ", "))
        return .succeeded
    }
}
