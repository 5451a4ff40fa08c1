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

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        guard !call.arguments.isEmpty else { return session.fail(":unwatch takes what to stop watching, or all", in: call) }
        if call.arguments.count == 1, call.arguments[0].value.lowercased() == "all" {
            let removed = session.watches.remove { _ in true }
            session.renderer.log(removed.isEmpty ? "no watches to end" : "stopped watching " + removed.map(\.text).joined(separator: ", "))
            return .succeeded
        }
        var ended: [Watches.Watch] = []
        for argument in call.arguments {
            guard let part = session.watchedPart(argument, in: call) else { return .failed }
            let matching = session.watches.all.filter {
                $0.target == part.target && $0.path.count == part.path.count && zip($0.path, part.path).allSatisfy(StatePath.matches)
            }
            guard !matching.isEmpty else {
                let list = session.watches.all.map(\.text)
                return session.fail(
                    "not watching \(part.watch.text); " + (list.isEmpty ? "nothing is watched" : "watching " + list.joined(separator: ", ")),
                    column: argument.column, in: call)
            }
            ended += matching
        }
        let removed = session.watches.remove { watch in ended.contains(watch) }
        session.renderer.log("stopped watching " + removed.map(\.text).joined(separator: ", "))
        return .succeeded
    }
}
