import Foundation
import KarcOutput

/// `:source FILE`: runs the commands in FILE (relative to the script that
/// sources it), echoing them at a prompt; nests at most 8 deep.
enum MetaSource: MetaCommand {
    static let name = "source"
    static let arguments = "FILE"
    static let summary = "run the commands in FILE"
    static let details = [
        ":source setup.karc          run each line of setup.karc, as if typed (relative to the script that sources it)",
        "At a prompt each command is shown before its output; scripts nest at most 8 deep.",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        guard position == 0 else { return nil }
        return MetaCompletions(candidates: Completer.paths(startingWith: words.last ?? ""), suffix: "")
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let file = call.arguments.first else {
            return context.fail(":source needs a file name", in: call)
        }
        guard context.io.sourceDepth < 8 else {
            return context.fail(":source nests deeper than 8 scripts (does a script source itself?)", column: file.column, in: call)
        }
        var path = file.value
        if !path.hasPrefix("/"), let script = call.location.script, script.contains("/") {
            path = (script as NSString).deletingLastPathComponent + "/" + path
        }
        let lines: any LineSource
        do {
            lines = try await context.host.openScript(path)
        } catch {
            return context.fail(error.message, column: file.column, in: call)
        }
        context.updateIO { $0.sourceDepth += 1 }
        // At a prompt, the sourced commands are shown before their output, or it could not be read.
        let echoed = context.options.printing.echo
        if context.io.isInteractive { context.options.printing.echo = true }
        defer {
            context.updateIO { $0.sourceDepth -= 1 }
            context.options.printing.echo = echoed
        }
        switch await context.scriptRunner.run(standardInput: lines, name: path) {
        case .succeeded: return .succeeded
        case .quit: return .quit
        case .failed: return .failed
        case .interrupted: return .interrupted
        }
    }
}
