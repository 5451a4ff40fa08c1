import Foundation

/// Turns a parsed invocation into a typed command: finds the target and the
/// command, checks each value against its field's type, and decodes the
/// command type from the result. Each error names the column and, for a
/// misspelt name, the nearest right one.
public struct CommandBuilder: Sendable {
    public let catalog: Catalog

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The target, the command schema, and the decoded command.
    public func build(_ invocation: Invocation) throws(LineError) -> (target: TargetSchema, command: CommandSchema, value: any Sendable) {
        let target = try resolveTarget(invocation.target)
        let command = try resolveCommand(invocation.command, in: target)
        let json: Data
        switch invocation.body {
        case .json(let text):
            json = Data(text.value.utf8)
            guard (try? JSONSerialization.jsonObject(with: json)) is [String: Any] else {
                throw LineError(column: text.column, "not a valid JSON object: \(text.value.prefix(60))")
            }
        case .fields(let arguments):
            let fields = try values(arguments, for: command, of: target, column: invocation.command.column)
            if let value = FieldDecoder.decode(command.type, from: fields) { return (target, command, value) }
            // Every value in `fields` is a string, number, boolean, array or dictionary: JSONSerialization takes it.
            json = (try? JSONSerialization.data(withJSONObject: FieldValue.object(fields).jsonObject)) ?? Data("{}".utf8)
        }
        do {
            let value = try JSONDecoder().decode(command.type, from: json)
            return (target, command, value)
        } catch let error as DecodingError {
            throw LineError(column: invocation.command.column, "\(target.name).\(command.name): \(Self.describe(error, command: command))")
        } catch {
            throw LineError(column: invocation.command.column, "\(target.name).\(command.name) rejected the input: \(error)")
        }
    }

    func resolveTarget(_ typed: Located<String>) throws(LineError) -> TargetSchema {
        if let target = catalog.target(named: typed.value) { return target }
        let names = catalog.targets.map(\.name)
        throw LineError(column: typed.column, "unknown target '\(typed.value.clipped)'"
            + Names.didYouMean(typed.value, among: names) + " Targets: \(names.joined(separator: ", "))")
    }

    func resolveCommand(_ typed: Located<String>, in target: TargetSchema) throws(LineError) -> CommandSchema {
        if let command = target.command(named: typed.value) { return command }
        let names = target.commands.map(\.name)
        throw LineError(column: typed.column, "unknown command '\(typed.value.clipped)' for \(target.name)"
            + Names.didYouMean(typed.value, among: names) + " Commands: \(names.joined(separator: ", "))")
    }

    /// The fields' values, checked against their types, by field name.
    private func values(_ arguments: [FieldArgument], for command: CommandSchema, of target: TargetSchema, column: Int) throws(LineError) -> [String: FieldValue] {
        guard let fields = command.fields else {
            throw LineError(column: column, "\(target.name).\(command.name) takes its fields as a JSON object: \(target.name).\(command.name) {\"field\": value}")
        }
        var object: [String: FieldValue] = [:]
        var given: Set<String> = []
        for argument in arguments {
            guard let field = command.field(named: argument.name.value) else {
                let names = fields.map { Names.kebab($0.name) }
                var message = "unknown field '\(argument.name.value.clipped)' for \(command.name)"
                    + Names.didYouMean(argument.name.value, among: names)
                message += fields.isEmpty ? " (it takes no fields)" : " Fields: \(names.joined(separator: ", "))"
                throw LineError(column: argument.name.column, message)
            }
            guard given.insert(field.name).inserted else {
                throw LineError(column: argument.name.column, "field '\(argument.name.value.clipped)' is given twice")
            }
            if case .null = argument.value.value {
                guard !field.isRequired else {
                    throw LineError(column: argument.value.column, "field '\(Names.kebab(field.name))' is required (\(field.type)); it cannot be nil")
                }
                continue
            }
            object[field.name] = try Self.value(argument.value, as: field.type, field: Names.kebab(field.name))
        }
        let missing = fields.filter { $0.isRequired && !given.contains($0.name) }
        if !missing.isEmpty {
            let list = missing.map { "\(Names.kebab($0.name))=\($0.type)" }.joined(separator: " ")
            throw LineError(column: column, "\(target.name).\(command.name): missing required field\(missing.count == 1 ? "" : "s") \(list)")
        }
        return object
    }

    /// `value` as a field of `type`, or an error saying what was expected.
    /// `field` names the field in an error; it is only worked out for one.
    static func value(_ value: Located<ShellValue>, as type: FieldType, field: @autoclosure () -> String) throws(LineError) -> FieldValue {
        func mismatch() -> LineError {
            LineError(column: value.column, "field '\(field())' expects \(expectation(type)), got \(value.value.shown)")
        }
        switch (type, value.value) {
        case (.int, .int(let number, _)): return .int(number)
        case (.decimal, .int(let number, _)): return .int(number)
        case (.decimal, .decimal(let number, _)): return .double(number)
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.string, .string(let text, _)): return .string(text)
        case (.string, .int(_, let text)), (.string, .decimal(_, let text)): return .string(text)
        case (.string, .bool(let flag)): return .string("\(flag)")
        case (.choice(_, let cases), .string(let text, _)):
            if let match = cases.first(where: { $0 == text }) ?? cases.first(where: { Names.matches(text, $0) }) { return .string(match) }
            throw LineError(column: value.column, "field '\(field())' expects one of \(cases.joined(separator: ", ")), got \(value.value.shown)"
                + Names.didYouMean(text, among: cases))
        case (.list(let element), .list(let items)):
            var array: [FieldValue] = []
            for item in items { array.append(try Self.value(item, as: element, field: field())) }
            return .list(array)
        case (.list(let element), _):
            return .list([try Self.value(value, as: element, field: field())])
        case (.object, .json(let text)), (.decimal, .json(let text)), (.int, .json(let text)),
             (.string, .json(let text)), (.bool, .json(let text)), (.choice, .json(let text)):
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
                throw LineError(column: value.column, "field '\(field())': not valid JSON: \(text.prefix(60))")
            }
            return .parsed(object)
        default:
            throw mismatch()
        }
    }

    static func expectation(_ type: FieldType) -> String {
        switch type {
        case .object(let name): "a {json} \(name)"
        case .list(let element): "a list [\(element), …]"
        default: "\(type)"
        }
    }

    /// A decoding error in the shell's words: which field, what was wrong.
    static func describe(_ error: DecodingError, command: CommandSchema) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the command" : "field '" + path.map { $0.intValue.map { "[\($0)]" } ?? Names.kebab($0.stringValue) }.joined(separator: ".") + "'"
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
