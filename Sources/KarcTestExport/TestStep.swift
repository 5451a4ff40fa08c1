import KarcRendering

/// What a session did, as a generated test replays it: each command sent
/// with what came of it, and each event, in the order the shell printed them.
package enum TestStep {
    package enum Outcome {
        case replied((any Sendable)?)
        case threw(String)
        /// Timed out or interrupted: the test cannot know what it would reply.
        case unanswered
    }

    /// Where a command was typed: kept as its parts, written out only by an export.
    package struct Origin {
        package var script: String?
        package var line: Int?
        package var text: String

        package init(script: String?, line: Int?, text: String) {
            (self.script, self.line, self.text) = (script, line, text)
        }

        /// `script:line: text`, the script named by `scriptName`.
        package func described(_ scriptName: (String) -> String) -> String {
            (script.map { "\(scriptName($0)):\(line ?? 0): " } ?? "") + text
        }
    }

    case send(target: String, command: any Sendable, origin: Origin, outcome: Outcome)
    case event(source: String, event: any Sendable)
    /// A target's state as a change the session printed left it.
    case state(target: String, state: any Sendable)
    /// The session reset the cluster (`:reset`): a test does not replay it.
    case reset(origin: Origin)
    /// The session put states back (`:restore`, `:undo`): a test restores them too.
    case restore(states: [String: any Sendable], origin: Origin)
    /// The session checked a part of a state (`:assert`): a test expects it too.
    case check(Check)

    /// An `:assert` as the session ran it.
    package struct Check {
        package var target: String
        /// The path's steps after the target (none: the whole state).
        package var steps: [StatePath.Step]
        package var op: String
        /// The value as typed, and whether it was in quotes (a string, whatever it holds).
        package var expected: String
        package var quoted: Bool
        /// Whether it held in the session: one that did not is not expected in the test.
        package var held: Bool
        /// The target's state when it was checked: what the path is read against to write it as Swift.
        package var state: any Sendable
        package var origin: Origin

        package init(
            target: String, steps: [StatePath.Step], op: String, expected: String, quoted: Bool, held: Bool, state: any Sendable, origin: Origin
        ) {
            (self.target, self.steps, self.op, self.expected, self.quoted, self.held) = (target, steps, op, expected, quoted, held)
            (self.state, self.origin) = (state, origin)
        }
    }
}
