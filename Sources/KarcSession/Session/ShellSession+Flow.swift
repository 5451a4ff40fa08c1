import KarcTrace

/// The diagram of some commands' flows, and which commands (`:seq`, `:export-diagram`).
package struct FlowDiagram {
    package let diagram: SequenceDiagram
    package let commands: [(seq: Int, name: String)]
}

/// Why a flow cannot be drawn: what is wrong, and where in the argument.
package struct FlowProblem: Error {
    package let message: String
    package let column: Int?
}

extension ShellSession {
    package typealias Flow = FlowDiagram

    /// The flow `argument` names (`N`, `N-M`); without one, the last send's
    /// (or, `defaultAll`, every command's kept).
    package func flow(_ argument: Located<String>?, for command: String, defaultAll: Bool = false) -> Result<Flow, FlowProblem> {
        let traced = traces.tracedCommands
        guard !traced.isEmpty else {
            return .failure(FlowProblem(message: "no command has a flow yet: \(command) draws the sends of this session", column: argument?.column))
        }
        var wanted: [Int]
        if let argument {
            let range: ClosedRange<Int>
            switch Self.commandRange(argument.value) {
            case .success(let found): range = found
            case .failure(let problem): return .failure(FlowProblem(message: problem.message, column: argument.column))
            }
            wanted = traced.filter(range.contains)
            // A number past the last command is not a command without a flow: there is none yet.
            if wanted.isEmpty, range.lowerBound > log.history.total {
                return .failure(
                    FlowProblem(
                        message:
                            "there is no command \(range.lowerBound) yet (:history lists them); commands with a flow: \(MetaTrace.ranges(traced))",
                        column: argument.column))
            }
            guard !wanted.isEmpty else {
                return .failure(
                    FlowProblem(
                        message: "no command in \(argument.value) has a flow (only sends have one); commands with one: \(MetaTrace.ranges(traced))",
                        column: argument.column))
            }
        } else {
            wanted = defaultAll ? traced : [traced[traced.count - 1]]
        }
        let recordings = wanted.compactMap { traces.recording(ofCommand: $0) }
        return .success(
            Flow(
                diagram: SequenceDiagram(recordings, label: names.label),
                commands: recordings.compactMap { r in r.command.map { ($0, r.commandName ?? "") } }))
    }

    /// `3` → 3...3, `3-7` → 3...7; else what is wrong with `text`, for a
    /// message that goes on from the argument's name or place.
    package static func commandRange(_ text: String) -> Result<ClosedRange<Int>, RangeProblem> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0) }
        // `-1` splits into "" and "1": a negative number, as `0` is one below the first.
        let negative = parts.count == 2 && parts[0].isEmpty && numbers.count == 1
        guard (1...2).contains(parts.count), numbers.count == parts.count || negative else {
            return .failure(RangeProblem(message: "expected a command's number or a range (3, 3-7; :history numbers), got '\(text)'"))
        }
        guard !negative, numbers.allSatisfy({ $0 > 0 }) else {
            return .failure(RangeProblem(message: "commands are numbered from 1 (:history numbers), got '\(text)'"))
        }
        let (first, last) = (numbers[0], numbers[numbers.count - 1])
        guard last >= first else {
            return .failure(RangeProblem(message: "the end is before the start in '\(text)': write \(last)-\(first)"))
        }
        return .success(first...last)
    }

    /// Why a range of commands (`3-7`) names none.
    package struct RangeProblem: Error {
        package let message: String
    }
}
