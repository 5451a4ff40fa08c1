import KarcHistory
import KarcOutput
import KarcRendering

/// `:watch [PATH…]`: prints every change of a part of a state as it
/// happens, whoever made it; without a path, lists the watches.
enum MetaWatch: MetaCommand {
    static let name = "watch"
    static let arguments = "[target[.path]…]"
    static let summary = "print every change of a part of a state as it happens (by a command, a timer, another shell)"
    static let details = [
        ":watch articles.items[3].likes   one field of one element",
        ":watch identity.user             a field and everything inside it",
        ":watch counter                   a whole target",
        ":watch                           the watches",
        "A part that is not there yet is watched, and reported when it appears; a field its type does not have is an error.",
        ":unwatch ends a watch.",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        MetaCompletions(candidates: context.partPaths(words[position]), suffix: "")
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard !call.arguments.isEmpty else {
            context.renderer.emit(.watches(context.states.watches.all.map(\.text)))
            return .succeeded
        }
        var parts: [WatchedPart] = []
        for argument in call.arguments {
            guard let part = await context.checkedPart(argument, in: call) else { return .failed }
            parts.append(part)
        }
        for part in parts {
            let watch = part.watch
            guard context.updateStates({ $0.watches.add(watch) }) else {
                context.renderer.log("already watching \(watch.text)")
                continue
            }
            // Read again once watched: a change since the check is in the value, or reported.
            switch await context.value(of: part) {
            case nil:
                context.renderer.log("watching \(watch.text) (\(part.target) has no state to read now; its changes are reported as they come)")
            case .success(let value)?:
                context.renderer.log("watching \(watch.text), now \(ValueText.inline(value))")
            case .failure(let error)?:
                context.renderer.log("watching \(watch.text), not there now (\(error.message)); reported when it appears")
            }
        }
        return .succeeded
    }
}
