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

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        guard !call.arguments.isEmpty else {
            session.renderer.emit(.watches(session.watches.all.map(\.text)))
            return .succeeded
        }
        var parts: [WatchedPart] = []
        for argument in call.arguments {
            guard let part = await session.checkedPart(argument, in: call) else { return .failed }
            parts.append(part)
        }
        for part in parts {
            let watch = part.watch
            guard session.watches.add(watch) else {
                session.renderer.log("already watching \(watch.text)")
                continue
            }
            // Read again once watched: a change since the check is in the value, or reported.
            switch await session.value(of: part) {
            case nil:
                session.renderer.log("watching \(watch.text) (\(part.target) has no state to read now; its changes are reported as they come)")
            case .success(let value)?:
                session.renderer.log("watching \(watch.text), now \(ValueText.inline(value))")
            case .failure(let error)?:
                session.renderer.log("watching \(watch.text), not there now (\(error.message)); reported when it appears")
            }
        }
        return .succeeded
    }
}
