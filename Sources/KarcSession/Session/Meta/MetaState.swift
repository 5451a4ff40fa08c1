import KarcLanguage
import KarcOutput
import KarcRendering

/// `:state [target [path]]`: the current state of every target, of one, or
/// a part of one (`items[3].title`); through the pager at a prompt.
enum MetaState: MetaCommand {
    static let name = "state"
    static let arguments = "[target [path]]"
    static let summary = "the current state of every target, of one, or a part (items[3].title)"
    static let details = [
        ":state                      every target's state",
        ":state articles             one target's",
        ":state articles items[0]    a part: fields by name, elements by index ([0], [-1] the last), keys as [\"key\"]",
        "At a prompt a long state opens in the pager ($PAGER, else less).",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        switch position {
        case 0: MetaCompletions(candidates: context.targetNames)
        // A path goes on after a field or an element: no space after it.
        case 1:
            context.catalog.target(named: words[0]).map { MetaCompletions(candidates: context.statePaths($0.name, words[1]), suffix: "") }
        default: nil
        }
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard context.io.mayPage, !context.options.printing.json else { return await printState(call, in: context) }
        let sink = context.renderer.sink
        sink.flush()
        let outcome = await printState(call, in: context)
        await context.host.page(sink.takeBuffered())
        return outcome
    }

    private static func printState(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        let arguments = call.arguments
        var targets = context.cluster.catalog.targets
        if let name = arguments.first {
            do {
                targets = [try context.builder.resolveTarget(name)]
            } catch {
                return context.fail(error.message, column: error.column, in: call)
            }
        }
        if let path = arguments.dropFirst().first, let target = targets.first {
            if let extra = arguments.dropFirst(2).first {
                return context.fail(":state takes a target and at most one path", column: extra.column, in: call)
            }
            return await state(of: target, at: path, call: call, in: context)
        }
        for target in targets {
            guard let state = await context.cluster.state(of: target.name) else {
                if arguments.first != nil { context.renderer.log("\(target.name) has no state") }
                continue
            }
            context.renderer.snapshot(target: target.name, state)
        }
        return .succeeded
    }

    /// `:state articles items[3]`: one part of a target's state, shown whole, headed by the target's name and the path.
    private static func state(of target: TargetSchema, at path: Located<String>, call: MetaCall, in context: MetaContext) async
        -> CommandOutcome
    {
        let steps: [StatePath.Step]
        switch StatePath.parse(path.value) {
        case .success(let parsed): steps = parsed
        case .failure(let error): return context.fail(error.message, column: path.column + error.offset - 1, in: call)
        }
        guard let state = await context.cluster.state(of: target.name) else {
            return context.fail("\(target.name) has no state", column: path.column, in: call)
        }
        switch StatePath.resolve(state, steps) {
        case .success(let part):
            context.renderer.snapshot(target: "\(target.name) \(path.value)", part, path: path.value, of: target.name)
            return .succeeded
        case .failure(let error):
            return context.fail(error.message, column: path.column, in: call)
        }
    }
}
