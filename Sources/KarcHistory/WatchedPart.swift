import KarcLanguage
import KarcRendering

/// A part of a target's state as `:watch` and `:blame` name it:
/// `articles.items[3].likes`, `identity.user`, or a whole target `articles`.
package struct WatchedPart {
    package let target: String
    package let path: [StatePath.Step]
    /// The path as typed after the target.
    package let pathText: String

    /// Reads `text`: the longest target name it starts with, then a path
    /// (`.field`, `[3]`, `["key"]`); what is wrong and at which character
    /// (0-based) when it names none.
    package static func parse(_ text: String, targets: [String]) -> Result<WatchedPart, StatePath.PathError> {
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

    package var watch: Watches.Watch { Watches.Watch(target: target, path: path, pathText: pathText) }
}
