import KarcLanguage
import KarcRendering

/// What `:help` shows, as lines for people and as one JSON object
/// (`{"kind":"help",…}`, fields in docs/shell.md): the same facts in both.
package enum HelpPage {
    /// `:help`: the targets with their commands, and the meta commands.
    case overview(cluster: String, targets: [TargetSchema], meta: [Meta])
    /// `:help TARGET`: its commands, with their fields in one line each.
    case target(TargetSchema)
    /// `:help TARGET.COMMAND`: its fields, types, defaults and cases.
    case command(TargetSchema, CommandSchema)
    /// `:help :NAME`: a meta command, with examples.
    case meta(Meta)

    /// What `:help :NAME` tells of a meta command.
    package struct Meta {
        package let name: String
        package let head: String
        package let arguments: String
        package let summary: String
        package let details: [String]
        package let aliases: [String]

        package init(name: String, head: String, arguments: String, summary: String, details: [String], aliases: [String]) {
            (self.name, self.head, self.arguments, self.summary, self.details, self.aliases) = (name, head, arguments, summary, details, aliases)
        }
    }

    package var lines: [String] {
        switch self {
        case .overview(let cluster, let targets, let meta):
            var lines = ["Targets of \(cluster) (send with TARGET.COMMAND field=value …; :help TARGET for more):"]
            for target in targets {
                let commands = target.commands.map(\.name).joined(separator: ", ")
                let note = target.hiddenNote.map { commands.isEmpty ? $0 : "; \($0)" } ?? ""
                lines.append("  \(target.name) (\(target.kind)): " + commands + note)
            }
            lines.append("Meta commands (:help :NAME for more):")
            // Padded in Swift: Foundation's `padding(toLength:)` bridges through NSString, a help page's most time.
            let width = meta.map { DisplayWidth.of($0.head) }.max() ?? 0
            lines += meta.map { "  " + DisplayWidth.padded($0.head, to: width + 3) + $0.summary }
            return lines
        case .target(let target):
            var lines = ["\(target.name) (\(target.kind)):"]
            for command in target.commands {
                lines.append("  \(target.name).\(command.synopsis)" + (command.summary.map { "  — \($0)" } ?? ""))
            }
            if let note = target.hiddenNote { lines.append("  \(note)") }
            return lines
        case .command(let target, let command):
            var lines = ["\(target.name).\(command.synopsis)"]
            if let summary = command.summary { lines.append("  \(summary)") }
            guard let fields = command.fields else { return lines + ["  fields: a JSON object decoded as \(command.typeName)"] }
            for field in fields {
                var line = "  \(Names.kebab(field.name))  \(field.type)"
                line += field.isRequired ? "  required" : "  optional" + (field.defaultValue.map { ", default \($0)" } ?? "")
                if case .choice(let choice) = field.type { line += "; one of \(choice.cases.joined(separator: ", "))" }
                if let help = field.help { line += "  — \(help)" }
                lines.append(line)
                for nested in field.fields ?? [] {
                    let requirement = nested.isRequired ? "required" : "optional"
                    lines.append(
                        "    \(Names.kebab(field.name)).\(Names.kebab(nested.name))  \(nested.type)  \(requirement)"
                            + (nested.help.map { "  — \($0)" } ?? ""))
                }
            }
            return lines
        case .meta(let meta):
            var lines = [meta.head, "  " + meta.summary]
            lines += meta.details.map { "  " + $0 }
            if !meta.aliases.isEmpty { lines.append("  also: " + meta.aliases.map { ":" + $0 }.joined(separator: ", ")) }
            return lines
        }
    }

    package var json: JSONObject {
        switch self {
        case .overview(let cluster, let targets, let meta):
            return [
                "kind": "help", "cluster": cluster,
                "targets": targets.map { target -> JSONObject in
                    ["name": target.name, "targetKind": target.kind, "commands": target.commands.map(\.name), "untypable": target.hidden]
                },
                "meta": meta.map { ["name": $0.name, "arguments": $0.arguments, "summary": $0.summary] as JSONObject },
            ]
        case .target(let target):
            return [
                "kind": "help", "target": target.name, "targetKind": target.kind, "untypable": target.hidden,
                "commands": target.commands.map { command -> JSONObject in
                    var object: JSONObject = ["name": command.name, "synopsis": "\(target.name).\(command.synopsis)"]
                    object["summary"] = command.summary
                    return object
                },
            ]
        case .command(let target, let command):
            var object: JSONObject = ["kind": "help", "target": target.name, "command": command.name, "type": command.typeName]
            object["summary"] = command.summary
            object["fields"] = command.fields.map { $0.map(Self.field) }
            return object
        case .meta(let meta):
            return [
                "kind": "help", "meta": meta.name, "arguments": meta.arguments, "summary": meta.summary, "details": meta.details,
                "aliases": meta.aliases,
            ]
        }
    }

    private static func field(_ field: FieldSchema) -> JSONObject {
        var object: JSONObject = ["name": Names.kebab(field.name), "type": "\(field.type)", "required": field.isRequired]
        object["default"] = field.defaultValue
        object["help"] = field.help
        if case .choice(let choice) = field.type { object["cases"] = choice.cases }
        object["fields"] = field.fields.map { $0.map(Self.field) }
        return object
    }
}
