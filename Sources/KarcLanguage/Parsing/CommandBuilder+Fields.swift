import Foundation

/// Checking each `field=value` against its field's type.
extension CommandBuilder {
    /// The fields' values, checked against their types, by field name. A
    /// dotted name (`address.city=Paris`, `labels.env=prod`) sets one field
    /// of a nested type or one key of a dictionary.
    package func values(_ arguments: [FieldArgument], for command: CommandSchema, of target: TargetSchema, column: Int) throws(LineError) -> [String:
        FieldValue]
    {
        guard let fields = command.fields else {
            throw LineError(
                column: column, "\(target.name).\(command.name) takes its fields as a JSON object: \(target.name).\(command.name) {\"field\": value}")
        }
        var object: [String: FieldValue] = [:]
        // Fields given whole, and fields set one nested name at a time.
        var given: Set<String> = []
        var dotted: Set<String> = []
        for argument in arguments {
            // Split only a dotted name: this runs for every field of every command.
            let path =
                argument.name.value.utf8.contains(UInt8(ascii: "."))
                ? argument.name.value.split(separator: ".", omittingEmptySubsequences: false).map(String.init) : [argument.name.value]
            guard let field = command.field(named: path[0]) else {
                let names = fields.map { Names.kebab($0.name) }
                var message = "unknown field '\(path[0].clipped)' for \(command.name)" + Names.didYouMean(path[0], among: names)
                message += fields.isEmpty ? " It takes no fields." : " Fields: \(names.joined(separator: ", "))"
                throw LineError(column: argument.name.column, message)
            }
            // Worked out for messages only (kebab-casing every field of every command showed in profiles).
            func named() -> String { Names.kebab(field.name) }
            guard !given.contains(field.name), path.count > 1 || !dotted.contains(field.name) else {
                throw LineError(column: argument.name.column, "field '\(named())' is given twice")
            }
            if path.count > 1 {
                dotted.insert(field.name)
                object[field.name] = try Self.assign(
                    argument.value, at: path.dropFirst(), of: field, named: named(), into: object[field.name], column: argument.name.column)
                continue
            }
            given.insert(field.name)
            if case .null = argument.value.value {
                guard !field.isRequired else {
                    throw LineError(column: argument.value.column, "field '\(named())' is required (\(field.type)); it cannot be nil")
                }
                continue
            }
            object[field.name] = try Self.value(argument.value, as: field.type, field: named())
        }
        given.formUnion(dotted)
        let missing = fields.filter { $0.isRequired && !given.contains($0.name) }
        if !missing.isEmpty {
            let list = missing.map { "\(Names.kebab($0.name))=\($0.type)" }.joined(separator: " ")
            throw LineError(column: column, "\(target.name).\(command.name): missing required field\(missing.count == 1 ? "" : "s") \(list)")
        }
        return object
    }

    /// `value` set at `path` inside `field` (a nested type or a dictionary), added to what is there.
    private static func assign(
        _ value: Located<ShellValue>, at path: ArraySlice<String>, of field: FieldSchema, named: String,
        into existing: FieldValue?, column: Int
    ) throws(LineError) -> FieldValue {
        var object: [String: FieldValue] = [:]
        if case .object(let fields)? = existing { object = fields }
        guard let key = path.first, !key.isEmpty else { throw LineError(column: column, "expected a name after '\(named).'") }
        let inner: FieldSchema
        switch field.type {
        case .dictionary(let valueType):
            inner = FieldSchema(name: key, type: valueType, isRequired: true, defaultValue: nil)
        case .object(let type):
            guard let fields = field.fields else {
                throw LineError(column: column, "field '\(named)' (\(type)) takes a {json} value only")
            }
            guard let found = fields.first(where: { $0.name == key }) ?? fields.first(where: { Names.matches(key, $0.name) }) else {
                let names = fields.map { Names.kebab($0.name) }
                throw LineError(
                    column: column,
                    "unknown field '\(key.clipped)' in '\(named)' (\(type))" + Names.didYouMean(key, among: names)
                        + " Fields: \(names.joined(separator: ", "))")
            }
            inner = found
        default:
            throw LineError(column: column, "field '\(named)' is a \(field.type): it has no fields to set with '\(named).\(key)'")
        }
        let innerName = "\(named).\(Names.kebab(inner.name))"
        if path.count > 1 {
            object[inner.name] = try assign(value, at: path.dropFirst(), of: inner, named: innerName, into: object[inner.name], column: column)
        } else if case .null = value.value {
            object[inner.name] = nil
        } else {
            guard object[inner.name] == nil else { throw LineError(column: column, "field '\(innerName)' is given twice") }
            object[inner.name] = try Self.value(value, as: inner.type, field: innerName)
        }
        return .object(object)
    }

    /// `value` as a field of `type`, or an error saying what was expected.
    /// `field` names the field in an error; it is only worked out for one.
    package static func value(_ value: Located<ShellValue>, as type: FieldType, field: @autoclosure () -> String) throws(LineError) -> FieldValue {
        func mismatch() -> LineError {
            let name = field()
            return LineError(column: value.column, "field '\(name)' expects \(expectation(type, field: name)), got \(value.value.shown)")
        }
        switch (type, value.value) {
        case (.int, .int(let number, _)): return .int(number)
        case (.decimal, .int(let number, _)), (.float, .int(let number, _)): return .int(number)
        case (.decimal, .decimal(let number, _)), (.float, .decimal(let number, _)): return .double(number)
        case (.exactDecimal, .int(_, let text)), (.exactDecimal, .decimal(_, let text)):
            guard let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { throw mismatch() }
            return .exactDecimal(number)
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.string, .string(let text, _)): return .string(text)
        case (.string, .int(_, let text)), (.string, .decimal(_, let text)): return .string(text)
        case (.string, .bool(let flag)): return .string("\(flag)")
        case (.date, .int(let seconds, _)): return .date(Date(timeIntervalSince1970: TimeInterval(seconds)))
        case (.date, .decimal(let seconds, _)): return .date(Date(timeIntervalSince1970: seconds))
        case (.date, .string(let text, _)):
            guard let date = DateText.parse(text) else { throw mismatch() }
            return .date(date)
        case (.uuid, .string(let text, _)):
            guard let uuid = UUID(uuidString: text) else { throw mismatch() }
            return .string(uuid.uuidString)
        case (.url, .string(let text, _)):
            guard !text.isEmpty, URL(string: text) != nil else { throw mismatch() }
            return .string(text)
        case (.choice(let choice), .string(let text, _)), (.choice(let choice), .int(_, let text)), (.choice(let choice), .decimal(_, let text)):
            guard let match = choice.match(text) else {
                throw LineError(
                    column: value.column,
                    "field '\(field())' expects one of \(choice.cases.joined(separator: ", ")), got \(value.value.shown)"
                        + Names.didYouMean(text, among: choice.cases))
            }
            switch choice.encoding {
            case .text: return .string(match)
            case .number: return .rawNumber(match)
            case .caseKey: return .object([match: .object([:])])
            }
        case (.list(let element), .list(let items)):
            var array: [FieldValue] = []
            for item in items { array.append(try Self.value(item, as: element, field: field())) }
            return .list(array)
        case (.list(let element), _):
            return .list([try Self.value(value, as: element, field: field())])
        case (_, .json(let text)):
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
                throw LineError(column: value.column, "field '\(field())': not valid JSON: \(text.prefix(60).oneLine)")
            }
            return .parsed(object)
        default:
            throw mismatch()
        }
    }

    package static func expectation(_ type: FieldType, field: String) -> String {
        switch type {
        case .object(let name): "a {json} \(name), or its fields as \(field).FIELD=value"
        case .list(let element): "a list [\(element), …]"
        case .dictionary(let value): "a {json} object of \(value) values, or its keys as \(field).KEY=value"
        case .date: "a Date (ISO 8601 like 2026-11-23 or 2026-11-23T10:30:00Z, or seconds since 1970)"
        case .uuid: "a UUID (like E621E1F8-C36C-495A-93FC-0C247A3E6E5F)"
        case .url: "a URL (like https://example.com/path)"
        case .exactDecimal: "a Decimal (like 12.50)"
        default: "\(type)"
        }
    }
}
