import Foundation

/// Turns a parsed invocation into a typed command: finds the target and the
/// command, checks each value against its field's type, and decodes the
/// command type from the result. Each error names the column and, for a
/// misspelt name, the nearest right one.
package struct CommandBuilder: Sendable {
    package let catalog: Catalog

    package init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The target, the command schema, and the decoded command.
    package func build(_ invocation: Invocation) throws(LineError) -> (target: TargetSchema, command: CommandSchema, value: any Sendable) {
        let target = try resolveTarget(invocation.target)
        let command = try resolveCommand(invocation.command, in: target)
        var json: Data
        switch invocation.body {
        case .json(let text):
            json = Data(text.value.utf8)
            guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
                throw LineError(column: text.column, "not a valid JSON object: \(text.value.prefix(60).oneLine)")
            }
            // An enum case's values, as Swift encodes them under the case's key.
            if let key = command.enumCase, let wrapped = try? JSONSerialization.data(withJSONObject: [key: object]) {
                json = wrapped
            }
        case .fields(let arguments):
            var fields = FieldValue.object(try values(arguments, for: command, of: target, column: invocation.command.column))
            if let key = command.enumCase { fields = .object([key: fields]) }
            if let value = FieldDecoder.decode(command.type, from: fields) { return (target, command, command.action(for: value)) }
            // Every value in `fields` is a string, number, boolean, array or dictionary: JSONSerialization takes it.
            json = (try? JSONSerialization.data(withJSONObject: fields.jsonObject)) ?? Data("{}".utf8)
        }
        do {
            let value = try JSONDecoder().decode(command.type, from: json)
            return (target, command, command.action(for: value))
        } catch let error as DecodingError {
            throw LineError(column: invocation.command.column, "\(target.name).\(command.name): \(Self.describe(error, command: command))")
        } catch {
            throw LineError(column: invocation.command.column, "\(target.name).\(command.name) rejected the input: \(error)")
        }
    }

    package func resolveTarget(_ typed: Located<String>) throws(LineError) -> TargetSchema {
        if let target = catalog.target(named: typed.value) { return target }
        let names = catalog.targets.map(\.name)
        throw LineError(
            column: typed.column,
            "unknown target '\(typed.value.clipped)'"
                + Names.didYouMean(typed.value, among: names) + " Targets: \(names.joined(separator: ", "))")
    }

    package func resolveCommand(_ typed: Located<String>, in target: TargetSchema) throws(LineError) -> CommandSchema {
        if let command = target.command(named: typed.value) { return command }
        let names = target.commands.map(\.name)
        throw LineError(
            column: typed.column,
            "unknown command '\(typed.value.clipped)' for \(target.name)"
                + Names.didYouMean(typed.value, among: names) + " Commands: \(names.joined(separator: ", "))")
    }

    /// A decoding error in the shell's words: which field, what was wrong.
    package static func describe(_ error: DecodingError, command: CommandSchema) -> String {
        func field(_ path: [any CodingKey]) -> String {
            // An enum case's fields sit under the case's key, which the user did not type.
            let path = command.enumCase != nil && path.first?.stringValue == command.enumCase ? Array(path.dropFirst()) : path
            return path.isEmpty
                ? "the command" : "field '" + path.map { $0.intValue.map { "[\($0)]" } ?? Names.kebab($0.stringValue) }.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing required field '\(Names.kebab(key.stringValue))'" + (context.codingPath.isEmpty ? "" : " in \(field(context.codingPath))")
        case .typeMismatch(let type, let context):
            return "\(field(context.codingPath)) expects \(type)"
        case .valueNotFound(let type, let context):
            return "\(field(context.codingPath)) expects \(type), got nil"
        case .dataCorrupted(let context):
            return "\(field(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
