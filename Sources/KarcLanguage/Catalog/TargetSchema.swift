/// A target of the cluster as the shell knows it: its name and its commands.
public struct TargetSchema: Sendable {
    /// The target's name (`counter`, `identity`).
    public let name: String
    /// What the target is (`store`, `model`, `dispatcher`, `service`).
    public let kind: String
    /// The commands the target takes.
    public let commands: [CommandSchema]
    /// The types it accepts that cannot be typed (not `Decodable`), by name: `:help` says why they are missing.
    public let hidden: [String]
    /// The event types it emits, by name, when its cluster says (`:wait`, `:events`).
    public let events: [String]

    /// A target: its name, kind, commands, commands kept out of completion, and the events it emits.
    public init(name: String, kind: String, commands: [CommandSchema], hidden: [String] = [], events: [String] = []) {
        self.name = name
        self.kind = kind
        self.commands = commands
        self.hidden = hidden
        self.events = events
    }

    /// Why some accepted types are not commands, or nil when every one is.
    public var hiddenNote: String? {
        guard !hidden.isEmpty else { return nil }
        let what = commands.isEmpty ? "no command can be typed (none is Decodable)" : "cannot be typed (not Decodable)"
        return "\(what): \(hidden.joined(separator: ", "))"
    }

    /// The command `typed` names (case-insensitive, kebab or camel case; the type name works too).
    public func command(named typed: some StringProtocol) -> CommandSchema? {
        // As written in the catalog (the usual case, and a script's every line): no key to build.
        commands.first { $0.name == typed } ?? commands.first { Names.matches(typed, $0.name) }
    }
}
