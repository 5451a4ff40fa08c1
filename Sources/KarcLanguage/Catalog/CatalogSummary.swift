/// A catalog as a prompt needs it to complete and hint: names, fields,
/// types, defaults, help and events, without the Swift types. Codable, so
/// an app sends it to a shell that attaches (`karc attach`), whose prompt
/// then completes as well as a local one.
package struct CatalogSummary: Codable, Sendable, Equatable {
    package struct Target: Codable, Sendable, Equatable {
        package var name: String
        package var kind: String
        package var commands: [Command]
        /// The event types it emits, by name.
        package var events: [String]

        /// The command `typed` names (case-insensitive, kebab or camel case).
        package func command(named typed: some StringProtocol) -> Command? {
            commands.first { $0.name == typed } ?? commands.first { Names.matches(typed, $0.name) }
        }
    }

    package struct Command: Codable, Sendable, Equatable {
        package var name: String
        /// `[value=Int, default 1]`: the hint after the command's name; `{json}` for an unprobed type.
        package var fieldsSynopsis: String
        /// nil when the type could not be probed.
        package var fields: [Field]?
        package var summary: String?

        /// The field `typed` names (case-insensitive, kebab or camel case).
        package func field(named typed: some StringProtocol) -> Field? {
            fields?.first { $0.name == typed } ?? fields?.first { Names.matches(typed, $0.name) }
        }
    }

    package struct Field: Codable, Sendable, Equatable {
        package var name: String
        /// As `:help` writes it (`Int`, `[String]`, `Priority`).
        package var type: String
        package var isRequired: Bool
        package var defaultValue: String?
        package var help: String?
        /// What a value completes to: an enum's cases, or `true`/`false`.
        package var values: [String]?
    }

    package var targets: [Target]

    /// The summary of `catalog`.
    package init(_ catalog: Catalog) {
        targets = catalog.targets.map { target in
            Target(
                name: target.name, kind: target.kind,
                commands: target.commands.map { command in
                    Command(
                        name: command.name, fieldsSynopsis: command.fieldsSynopsis,
                        fields: command.fields?.map { field in
                            let values: [String]? =
                                switch field.type {
                                case .choice(let choice): choice.cases
                                case .bool: ["true", "false"]
                                default: nil
                                }
                            return Field(
                                name: field.name, type: field.type.description, isRequired: field.isRequired,
                                defaultValue: field.defaultValue, help: field.help, values: values)
                        },
                        summary: command.summary)
                },
                events: target.events)
        }
    }

    /// The target `typed` names (exactly, else case-insensitively).
    package func target(named typed: some StringProtocol) -> Target? {
        targets.first { $0.name == typed } ?? targets.first { Names.matches(typed, $0.name) }
    }
}
