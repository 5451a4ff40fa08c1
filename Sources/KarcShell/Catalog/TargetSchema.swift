/// A target of the cluster as the shell knows it: its name and its commands.
public struct TargetSchema: Sendable {
    public let name: String
    /// What the target is (`store`, `model`, `dispatcher`, `service`).
    public let kind: String
    public let commands: [CommandSchema]

    public init(name: String, kind: String, commands: [CommandSchema]) {
        self.name = name
        self.kind = kind
        self.commands = commands
    }

    /// The command `typed` names (case-insensitive, kebab or camel case; the type name works too).
    public func command(named typed: some StringProtocol) -> CommandSchema? {
        // As written in the catalog (the usual case, and a script's every line): no key to build.
        commands.first { $0.name == typed } ?? commands.first { Names.matches(typed, $0.name) }
    }
}
