import Foundation
import KarcLanguage
import KarcSession

/// Writes commands from a cluster's catalog: a target's command picked at
/// random, each field given a value of its type. Values go for the edges
/// (0, -1, the largest numbers, the empty string, non-ASCII text, dates far
/// off) and, half the time, for what the run's replies and states held
/// (``ValuePool``), so that commands reach states deeper than validation.
package struct CommandGenerator: Sendable {
    /// A command `explore` may send.
    package struct Choice: Sendable {
        let target: String
        let command: CommandSchema
    }

    package let choices: [Choice]

    /// The commands of `catalog`'s targets named in `targets` (all when
    /// empty) but those in `skip` (`target.command`). Commands whose fields
    /// could not be learned (written only as `{json}`) are left out.
    package init(catalog: Catalog, targets: [String] = [], skip: [String] = []) throws(ExploreError) {
        for name in targets where catalog.target(named: name) == nil {
            throw ExploreError("--targets: no target '\(name)'; targets: \(catalog.targets.map(\.name).joined(separator: ", "))")
        }
        var choices: [Choice] = []
        for target in catalog.targets where targets.isEmpty || targets.contains(where: { Names.matches($0, target.name) }) {
            for command in target.commands where command.fields != nil {
                let name = "\(target.name).\(command.name)"
                if skip.contains(where: { Names.matches($0, name) || Names.matches($0, target.name) }) { continue }
                choices.append(Choice(target: target.name, command: command))
            }
        }
        for name in skip {
            let known = catalog.targets.contains { target in
                Names.matches(name, target.name) || target.commands.contains { Names.matches(name, "\(target.name).\($0.name)") }
            }
            if !known { throw ExploreError("--skip: no command or target '\(name)' (write target.command)") }
        }
        guard !choices.isEmpty else { throw ExploreError("nothing to explore: no target has a command whose fields karc could learn") }
        self.choices = choices
    }

    /// A command, with values from `random` and `pool`; `id` is its place in the run.
    package func next(_ random: inout SeededRandom, pool: ValuePool, id: Int = 0) -> ExploreCommand {
        let choice = random.pick(choices)
        var fields: [(name: String, value: ExploreValue)] = []
        var optional: Set<String> = []
        for field in choice.command.fields ?? [] {
            if !field.isRequired {
                optional.insert(field.name)
                if random.chance(0.3) { continue }
            }
            append(field, prefix: "", to: &fields, &random, pool)
        }
        return ExploreCommand(id: id, target: choice.target, command: choice.command.name, fields: fields, optional: optional)
    }

    /// `field` (nested fields one at a time, `address.city=…`).
    private func append(
        _ field: FieldSchema, prefix: String, to fields: inout [(name: String, value: ExploreValue)], _ random: inout SeededRandom, _ pool: ValuePool
    ) {
        let name = prefix + field.name
        if case .object = field.type, let nested = field.fields {
            for inner in nested where inner.isRequired || random.chance(0.7) {
                append(inner, prefix: name + ".", to: &fields, &random, pool)
            }
            return
        }
        fields.append((name, value(of: field.type, named: field.name, &random, pool, depth: 0)))
    }

    /// A value of `type`; `name` hints at what a string holds (an email, a password).
    func value(of type: FieldType, named name: String, _ random: inout SeededRandom, _ pool: ValuePool, depth: Int) -> ExploreValue {
        switch type {
        case .int:
            if !pool.ints.isEmpty, random.chance(0.4) { return .reference(random.pick(pool.ints)) }
            return .int(random.pick(Self.ints))
        case .decimal:
            return .decimal(random.pick(Self.decimals))
        case .float:
            return .decimal(random.pick(Self.floats))
        case .exactDecimal:
            return .word(random.pick(["0", "1", "-1", "12.35", "0.001", "99999999999999999999.99"]))
        case .bool:
            return .bool(random.chance(0.5))
        case .string:
            if !pool.strings.isEmpty, random.chance(0.4) { return .reference(random.pick(pool.strings)) }
            if let shaped = Self.shaped(name), random.chance(0.6) { return .string(random.pick(shaped)) }
            return .string(random.pick(Self.strings))
        case .date:
            return .word(random.pick(["2026-11-23", "1970-01-01T00:00:00Z", "2038-01-19T03:14:08Z", "0", "2000-02-29T23:59:59.999Z"]))
        case .uuid:
            if !pool.uuids.isEmpty, random.chance(0.7) { return .reference(random.pick(pool.uuids)) }
            return .word(Self.uuid(&random))
        case .url:
            return .word(random.pick(["https://example.com", "https://example.com/a?b=1", "file:///tmp/x", "http://localhost:8080/"]))
        case .list(let element):
            guard depth < 3 else { return .list([]) }
            let count = random.pick([0, 1, 1, 2, 3])
            return .list((0..<count).map { _ in value(of: element, named: name, &random, pool, depth: depth + 1) })
        case .dictionary(let element):
            let count = random.pick([0, 1, 2])
            let entries = (0..<count).map { index in
                "\(Self.jsonString(["a", "b", "ü"][index])): \(json(value(of: element, named: name, &random, pool, depth: depth + 1)))"
            }
            return .json("{" + entries.joined(separator: ", ") + "}")
        case .choice(let choice):
            return .word(Self.caseText(random.pick(choice.cases)))
        case .object:
            return .json("{}")
        }
    }

    /// `value` as JSON (a dictionary's values).
    private func json(_ value: ExploreValue) -> String {
        switch value {
        case .string(let text): Self.jsonString(text)
        case .word(let text): Self.jsonString(text)
        case .list(let elements): "[" + elements.map(json).joined(separator: ", ") + "]"
        case .reference(let reference): json(reference.literal)
        case .int, .decimal, .bool, .json: value.text
        }
    }

    private static func jsonString(_ text: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]),
            let array = String(data: data, encoding: .utf8)
        else { return "\"\"" }
        return String(array.dropFirst().dropLast())
    }

    /// An enum case as a bare word when it reads as one, else quoted.
    private static func caseText(_ text: String) -> String {
        let bare = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        return bare ? text : LineParser.literal(text)
    }

    private static func uuid(_ random: inout SeededRandom) -> String {
        var bytes: [UInt8] = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
        return uuid.uuidString
    }

    static let ints = [0, 1, -1, 2, 3, 7, 10, 42, 100, 255, 256, 1_000, -1_000, 65_535, Int(Int32.max), Int(Int32.min), Int.max, Int.min]
    static let decimals = [0, 0.5, -0.5, 1, -1, 3.14, 1e-9, 1e12, -1e12, 1e300]
    /// In `Float`'s range: a larger number is no `Float` and would only be refused.
    static let floats = [0, 0.5, -0.5, 1, -1, 3.14, 1e-9, 1e12, -1e12, 1e30]
    static let strings = [
        "", "a", "hello", "hello world", " padded ", "Ünïcødé ✓", "日本語", "😀👍", "a\"quote", "back\\slash", "line\nbreak",
        String(repeating: "x", count: 120),
    ]

    /// Strings of a shape a field's name asks for, so validation lets some through.
    static func shaped(_ name: String) -> [String]? {
        let name = name.lowercased()
        if name.contains("email") || name.contains("mail") { return ["a@b.co", "jill@example.com", "not-an-email", "@", "x@y"] }
        if name.contains("password") || name.contains("secret") { return ["secret1", "s3cret pass", "12345678", "pw"] }
        if name.contains("name") || name.contains("title") { return ["Jill", "Hello, karc", "A"] }
        return nil
    }
}
