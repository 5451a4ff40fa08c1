/// Every target of a cluster and its commands: what the shell parses, completes and explains.
public struct Catalog: Sendable {
    /// Every target, in the order the cluster lists them.
    public let targets: [TargetSchema]

    /// A catalog of `targets`.
    public init(targets: [TargetSchema]) {
        self.targets = targets
    }

    /// The target `typed` names (exactly, else case-insensitively).
    public func target(named typed: some StringProtocol) -> TargetSchema? {
        targets.first { $0.name == typed } ?? targets.first { Names.matches(typed, $0.name) }
    }

    /// A command as typed (`cart.add`): the first target's first command,
    /// what a message shows a command looks like (`target.command` when none has one).
    package var exampleCommand: String {
        guard let target = targets.first(where: { !$0.commands.isEmpty }), let command = target.commands.first else { return "target.command" }
        return "\(target.name).\(command.name)"
    }
}
