import KarcOutput
import KarcTestExport

/// `:reset [--partial]`: puts the whole cluster back as it started, and
/// prints the changes and which targets changed. A cluster with a target it
/// cannot reset is left alone, the target named, unless `--partial` says to
/// reset the others: a state half reset may be one the app never reaches
/// (a user signed in, their articles owned by nobody).
enum MetaReset: MetaCommand {
    static let name = "reset"
    static let arguments = "[--partial]"
    static let summary = "put every target back as the cluster started (its reset), printing what changed"
    static let details = [
        "Value stores take back their first model, Karc models are set up again; the changes print as a command's would.",
        "A target that cannot be reset is named and nothing changes; :reset --partial resets the others and leaves it as it is.",
        "What the cluster did outside itself (a message sent, a file written) is not undone.",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0 ? MetaCompletions(candidates: ["--partial"]) : nil
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        let partial = call.arguments.first?.value == "--partial"
        if let extra = call.arguments.dropFirst(partial ? 1 : 0).first {
            return context.fail(":reset takes nothing but --partial (:reset --partial resets what it can)", column: extra.column, in: call)
        }
        guard let cluster = context.capabilities.resetting else {
            return context.fail("cannot reset: " + ShellClusterCapabilities.cannotReset, in: call)
        }
        let left = cluster.unresettableTargets
        if !left.isEmpty, !partial {
            let (they, them) = left.count == 1 ? ("it has", "it as it is") : ("they have", "them as they are")
            return context.fail(
                "cannot reset \(Self.list(left)): \(they) no reset (a Trellis actor model needs ResettableModel); nothing was reset. "
                    + ":reset --partial resets the other targets and leaves \(them)", in: call)
        }
        do {
            try await cluster.reset()
        } catch {
            return context.fail("cannot reset: \(error)", in: call)
        }
        await context.settle()
        let origin = TestStep.Origin(script: call.location.script, line: call.location.line, text: call.text)
        context.updateLog { $0.keep(.reset(origin: origin), at: $0.nextStep) }
        let changed = context.printArrived()
        context.renderer.emit(.reset(.init(changed: changed, left: left)))
        return .succeeded
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }
}
