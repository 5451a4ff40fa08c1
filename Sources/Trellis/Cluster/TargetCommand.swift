/// A command a target takes under a name of its own rather than as an
/// action type: an emitter of a mounted component tree (`logIn.openSignUp`).
/// Tooling lists it beside the target's action types and sends the
/// ``action`` it makes.
public struct TargetCommand: Sendable {
    /// The command's name, a dot-separated path as Swift writes it: `logIn.openSignUp`.
    public let name: String
    /// The type of the value it takes (`value=` in the shell); nil when it takes none.
    public let input: (any Sendable.Type)?
    /// What the command does, for `:help`.
    public let summary: String?
    /// Makes the action that runs the command with `input` (nil when it takes none).
    public let action: @Sendable ((any Sendable)?) -> any Sendable

    /// A command named `name` that takes a value of type `input` (or none) and sends what `action` makes of it.
    public init(name: String, input: (any Sendable.Type)?, summary: String? = nil, action: @escaping @Sendable ((any Sendable)?) -> any Sendable) {
        self.name = name
        self.input = input
        self.summary = summary
        self.action = action
    }
}
