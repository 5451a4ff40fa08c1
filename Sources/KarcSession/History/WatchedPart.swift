import KarcLanguage
import KarcRendering

/// A part of a target's state as `:watch` and `:blame` name it:
/// `articles.items[3].likes`, `identity.user`, or a whole target `articles`.
struct WatchedPart {
    let target: String
    let path: [StatePath.Step]
    /// The path as typed after the target.
    let pathText: String

    /// Reads `text`: the longest target name it starts with, then a path
    /// (`.field`, `[3]`, `["key"]`); what is wrong and at which character
    /// (0-based) when it names none.
    static func parse(_ text: String, targets: [String]) -> Result<WatchedPart, StatePath.PathError> {
        var bounds = [text.endIndex]
        for index in text.indices where text[index] == "." || text[index] == "[" { bounds.append(index) }
        for bound in bounds.sorted(by: >) {
            let head = text[..<bound]
            guard let target = targets.first(where: { $0 == head }) ?? targets.first(where: { Names.matches(head, $0) }) else { continue }
            var rest = String(text[bound...])
            if rest.first == "." { rest.removeFirst() }
            guard !rest.isEmpty else { return .success(WatchedPart(target: target, path: [], pathText: "")) }
            switch StatePath.parse(rest) {
            case .success(let steps):
                return .success(WatchedPart(target: target, path: steps, pathText: rest))
            case .failure(let error):
                let offset = text.distance(from: text.startIndex, to: bound) + (text[bound] == "." ? 1 : 0) + error.offset - 1
                return .failure(StatePath.PathError(offset: offset, message: error.message))
            }
        }
        let typed = String(text.prefix { $0 != "." && $0 != "[" })
        return .failure(
            StatePath.PathError(
                offset: 0,
                message: "no target '\(typed)' in '\(text)'" + Names.didYouMean(typed, among: targets) + " Targets: "
                    + targets.joined(separator: ", ")))
    }

    var watch: Watches.Watch { Watches.Watch(target: target, path: path, pathText: pathText) }
}

extension ShellSession {
    /// The part `argument` names, or nil after saying what is wrong with it.
    func watchedPart(_ argument: Located<String>, in call: MetaCall) -> WatchedPart? {
        switch WatchedPart.parse(argument.value, targets: cluster.catalog.targets.map(\.name)) {
        case .success(let part): return part
        case .failure(let error):
            _ = fail(error.message, column: argument.column + error.offset, in: call)
            return nil
        }
    }

    /// The part's value now, or why it is not there; nil when its target has no state to read now.
    func value(of part: WatchedPart) async -> Result<Any, StatePath.PathError>? {
        guard let state = await cluster.state(of: part.target) else { return nil }
        return StatePath.resolve(state, part.path)
    }

    /// The part `argument` names, checked against its target's state: nil
    /// after saying what is wrong when it names a field the state's type does
    /// not have (a typo: never there). A part absent now (an index past the
    /// end, a nil) passes: it may have been there, or come.
    func checkedPart(_ argument: Located<String>, in call: MetaCall) async -> WatchedPart? {
        guard let part = watchedPart(argument, in: call) else { return nil }
        if case .failure(let error)? = await value(of: part), error.neverThere {
            // The path is the end of the argument, after the target's name and its `.`.
            _ = fail(error.message, column: argument.column + argument.value.count - part.pathText.count, in: call)
            return nil
        }
        return part
    }
}
