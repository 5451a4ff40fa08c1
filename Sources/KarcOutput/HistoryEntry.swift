/// How a command line ended.
package enum CommandOutcome: Equatable {
    case succeeded
    case failed
    /// Ctrl-C ended the command: a script stops, the prompt goes on.
    case interrupted
    case quit
}

/// A command line in `:history`: as typed, how it ended (nil while it
/// runs), what it printed (`:history N`) and which targets it reached.
package struct HistoryEntry {
    package let line: String
    package var outcome: CommandOutcome?
    package var output = CommandOutput()
    /// The targets it sent to or whose state changed while it ran (`:history target NAME`).
    package var targets: [String] = []

    /// What a command printed, both streams in order, as the terminal or the program read it.
    package struct CommandOutput {
        package var output = ""
        /// Bytes past the limit (``OutputSink/tapLimit``), not kept.
        package var cut = 0

        /// What output printed later may still keep: the limit less what is
        /// kept and the newline before it; none once something was cut, so
        /// what is kept has no gap.
        package var room: Int { cut > 0 ? 0 : OutputSink.tapLimit - output.utf8.count - (output.isEmpty ? 0 : 1) }

        /// `late` after what is kept: taken with ``room`` (``OutputSink/tap(_:exclusive:room:)``), so within the limit.
        package mutating func append(_ late: CommandOutput) {
            if !late.output.isEmpty { output += (output.isEmpty ? "" : "\n") + late.output }
            cut += late.cut
        }

        package init(output: String = "", cut: Int = 0) {
            (self.output, self.cut) = (output, cut)
        }
    }

    package mutating func reached(_ target: String) {
        if !targets.contains(target) { targets.append(target) }
    }

    /// `ok`, `error` or `interrupted`: how `--json` names the outcome (`done`, `history`).
    package static func name(_ outcome: CommandOutcome) -> String {
        switch outcome {
        case .succeeded, .quit: "ok"
        case .failed: "error"
        case .interrupted: "interrupted"
        }
    }

    package init(line: String, outcome: CommandOutcome? = nil, output: CommandOutput = CommandOutput(), targets: [String] = []) {
        (self.line, self.outcome, self.output, self.targets) = (line, outcome, output, targets)
    }
}
