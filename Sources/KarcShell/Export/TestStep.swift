/// What a session did, as a generated test replays it: each command sent
/// with what came of it, and each event, in the order the shell printed them.
enum TestStep {
    enum Outcome {
        case replied((any Sendable)?)
        case threw(String)
        /// Timed out or interrupted: the test cannot know what it would reply.
        case unanswered
    }

    case send(target: String, command: any Sendable, line: String, outcome: Outcome)
    case event(source: String, event: any Sendable)
}
