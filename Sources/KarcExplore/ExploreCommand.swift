import KarcSession

/// One generated command: its target, its command and the fields it gives.
package struct ExploreCommand: Sendable, Equatable {
    /// Its place in the run that made it: what references to its result name.
    package var id: Int = 0
    package var target: String
    package var command: String
    /// The fields given, in the command's order; an optional field left out is absent.
    package var fields: [(name: String, value: ExploreValue)]
    /// Which of `fields` may be left out (optional, or with a default).
    package var optional: Set<String>

    package init(
        id: Int = 0, target: String, command: String, fields: [(name: String, value: ExploreValue)], optional: Set<String> = []
    ) {
        self.id = id
        self.target = target
        self.command = command
        self.fields = fields
        self.optional = optional
    }

    /// The line a script sends it with.
    package var line: String {
        ([target + "." + command] + fields.map { "\($0.name)=\($0.value.text)" }).joined(separator: " ")
    }

    /// `target.command`.
    package var name: String { target + "." + command }

    /// The same command with the values it reuses taken from `harvests` (a replay's results, by command id).
    package func resolved(_ harvests: [Int: Harvest]) -> ExploreCommand {
        var copy = self
        for index in copy.fields.indices { copy.fields[index].value = copy.fields[index].value.resolved(harvests) }
        return copy
    }

    /// The same command made simpler one way each: an optional field left
    /// out, or one field's value simpler. Tried in this order by the shrinker.
    package var simpler: [ExploreCommand] {
        var candidates: [ExploreCommand] = []
        for (index, field) in fields.enumerated() where optional.contains(field.name) {
            var fewer = self
            fewer.fields.remove(at: index)
            candidates.append(fewer)
        }
        for (index, field) in fields.enumerated() {
            for value in field.value.simpler {
                var changed = self
                changed.fields[index].value = value
                candidates.append(changed)
            }
        }
        return candidates
    }

    package static func == (lhs: ExploreCommand, rhs: ExploreCommand) -> Bool {
        lhs.line == rhs.line
    }
}
