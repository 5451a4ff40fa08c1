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
            var column = invocation.command.column
            // In a JSON object, the error points at the value of the key it is about.
            if case .json(let text) = invocation.body, let path = error.codingPath, let at = Self.column(of: path, in: text) { column = at }
            throw LineError(column: column, "\(target.name).\(command.name): \(Self.describe(error, command: command))")
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

    /// The column of the value at `path` in the JSON object `text`, found by
    /// its keys in turn (`"key"` then `:`); nil when a key is not found so.
    static func column(of path: [any CodingKey], in text: Located<String>) -> Int? {
        let characters = Array(text.value)
        var at = 0
        for key in path {
            if let index = key.intValue {
                // An element: past its list's `[` and as many commas at that depth (a value of its own is not looked into).
                guard let open = characters[at...].firstIndex(of: "[") else { return nil }
                at = open + 1
                var (depth, commas) = (0, 0)
                while at < characters.count, commas < index {
                    switch characters[at] {
                    case "[", "{": depth += 1
                    case "]", "}": depth -= 1
                    case "," where depth == 0: commas += 1
                    default: break
                    }
                    if depth < 0 { return nil }
                    at += 1
                }
            } else {
                let quoted = Array("\"\(key.stringValue)\"")
                var found: Int?
                var index = at
                while index + quoted.count <= characters.count {
                    if Array(characters[index..<index + quoted.count]) == quoted {
                        var after = index + quoted.count
                        while after < characters.count, characters[after].isWhitespace { after += 1 }
                        if after < characters.count, characters[after] == ":" {
                            found = after + 1
                            break
                        }
                    }
                    index += 1
                }
                guard let value = found else { return nil }
                at = value
            }
            while at < characters.count, characters[at].isWhitespace { at += 1 }
        }
        // A column counts on the command's first line: a value on a later one is pointed at by its object.
        guard !characters[..<min(at, characters.count)].contains("\n") else { return nil }
        return text.column + at
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
            // The decoder says what it found ("Expected to decode Int but found a string instead."): said as what was given.
            let found = context.debugDescription.firstRange(of: "found ").map { context.debugDescription[$0.upperBound...] }
            let given =
                found.map { String($0.replacing(#/\s+instead\.?$/#, with: "")) }.map { kind in
                    // "a string", "an array", and Foundation's bare "number": said with its article too.
                    let article = kind.hasPrefix("a ") || kind.hasPrefix("an ") ? "" : ("aeiou".contains(kind.first ?? "x") ? "an " : "a ")
                    return ", got \(article)\(kind)"
                } ?? ""
            return "\(field(context.codingPath)) expects \(type)" + given
        case .valueNotFound(let type, let context):
            return "\(field(context.codingPath)) expects \(type), got nil"
        case .dataCorrupted(let context):
            return "\(field(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

extension DecodingError {
    /// Where in the decoded value it went wrong.
    fileprivate var codingPath: [any CodingKey]? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context.codingPath
        case .keyNotFound(_, let context): context.codingPath
        @unknown default: nil
        }
    }
}
