import KarcHistory
import KarcLanguage
import KarcRendering

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
