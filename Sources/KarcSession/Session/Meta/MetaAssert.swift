import Foundation
import KarcLanguage
import KarcOutput
import KarcRendering
import KarcTestExport

/// `:assert TARGET[.PATH] OP VALUE`: checks a part of a target's state now,
/// and fails (a script stops, its exit status is 1) when it does not hold.
enum MetaAssert: MetaCommand {
    static let name = "assert"
    static let arguments = "TARGET[.PATH] OP VALUE"
    static let summary = "check a part of a state now (==, !=, <, <=, >, >=, contains); fails when it does not hold"
    static let details = [
        ":assert counter.count == 3                   a field",
        ":assert articles.items[0].title == \"Hello\"   a string (quoted, or one bare word)",
        ":assert articles.items.count >= 2            count: a list's, a dictionary's or a string's length",
        ":assert identity.user != null                null for nil",
        ":assert articles.items contains {\"id\":1,\"likes\":0,\"title\":\"Hello\"}   JSON for lists and objects (no spaces)",
        "Values compare as the state's JSON does; a state that is not Encodable compares its dump with a string.",
    ]

    static let operators = ["==", "!=", "<", "<=", ">", ">=", "contains"]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        switch position {
        case 0: MetaCompletions(candidates: context.targetNames.map { $0 + "." }, suffix: "")
        case 1: MetaCompletions(candidates: operators)
        default: nil
        }
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard call.arguments.count >= 3 else {
            return context.fail(":assert needs a path, an operator and a value (like :assert counter.count == 3)", in: call)
        }
        let (path, op, value) = (call.arguments[0], call.arguments[1], call.arguments[2])
        // The operator first: a word where it goes is more likely a path typed with a space than a value.
        guard operators.contains(op.value) else {
            return context.fail(unknownOperator(op.value, after: path.value, then: value.value), column: op.column, in: call)
        }
        // A quoted value is a string, whatever it holds ("3"); the parser has unquoted it. Else the
        // rest of the line as typed is the value: JSON (spaces and all), or one bare word.
        let quoted = Self.wasQuoted(value, in: call.location.text)
        let typed = quoted ? value.value : Self.rest(of: call.location.text, from: value.column) ?? value.value
        let expected: Any
        if quoted {
            if let extra = call.arguments.dropFirst(3).first {
                return context.fail(":assert takes one value after its operator", column: extra.column, in: call)
            }
            expected = value.value
        } else if let parsed = Self.expected(typed) {
            expected = parsed
        } else {
            return context.fail(
                "expected one value: a number, true, false, null, a quoted string, one bare word, or JSON; got '\(typed.clipped)'",
                column: value.column, in: call)
        }
        let resolved: Resolved
        switch await resolve(path, in: context) {
        case .success(let found): resolved = found
        case .failure(let error): return context.fail(error.message, column: error.column, in: call)
        }
        let actual = Self.comparable(resolved.part)
        let verdict = Self.holds(actual, op.value, expected)
        if case .success(let held) = verdict {
            // A generated test expects it too (or says why it does not).
            let check = TestStep.Check(
                target: resolved.target, steps: resolved.steps, op: op.value, expected: typed, quoted: quoted, held: held,
                state: resolved.state, origin: .init(script: call.location.script, line: call.location.line, text: call.text))
            context.updateLog { $0.checked(check) }
        }
        switch verdict {
        case .success(true):
            context.renderer.log("ok: \(path.value) \(op.value) \(Self.describe(expected))")
            return .succeeded
        case .success(false):
            return context.fail(
                "assertion failed: \(path.value) is \(Self.describe(actual)), expected \(op.value) \(Self.describe(expected))", column: path.column,
                in: call)
        case .failure(let error):
            return context.fail(error.message, column: op.column, in: call)
        }
    }

    /// What is wrong with `word` where the operator goes: a path typed with a
    /// space (`articles.items count == 1`) when an operator follows it.
    static func unknownOperator(_ word: String, after path: String, then next: String) -> String {
        let expected = "expected one of \(operators.joined(separator: ", "))"
        guard operators.contains(next) else { return "unknown operator '\(word.clipped)'; \(expected)" }
        let joined = path + (word.hasPrefix("[") ? "" : ".") + word
        return "unknown operator '\(word.clipped)'; did you mean \(joined.clipped)? (a path has no spaces)"
    }

    struct Problem: Error {
        let message: String
        var column: Int
    }

    /// The part a path named, and where it is: the target, the steps after it, and the target's whole state.
    private struct Resolved {
        let part: Any
        let target: String
        let steps: [StatePath.Step]
        let state: any Sendable
    }

    /// The part of a target's state `path` names (`articles.items[0].title`); `count` after a
    /// list, a dictionary or a string is its length.
    private static func resolve(_ path: Located<String>, in context: MetaContext) async -> Result<Resolved, Problem> {
        let text = path.value
        let end = text.firstIndex { $0 == "." || $0 == "[" } ?? text.endIndex
        let target: TargetSchema
        do {
            target = try context.builder.resolveTarget(Located(String(text[..<end]), column: path.column))
        } catch {
            return .failure(Problem(message: error.message, column: error.column))
        }
        guard let state = await context.cluster.state(of: target.name) else {
            return .failure(Problem(message: "\(target.name) has no state", column: path.column))
        }
        var rest = String(text[end...])
        if rest.hasPrefix(".") { rest.removeFirst() }
        guard !rest.isEmpty else { return .success(Resolved(part: state, target: target.name, steps: [], state: state)) }
        let steps: [StatePath.Step]
        switch StatePath.parse(rest) {
        case .success(let parsed): steps = parsed
        case .failure(let error):
            return .failure(Problem(message: error.message, column: path.column + text.distance(from: text.startIndex, to: end) + error.offset))
        }
        switch StatePath.resolve(state, steps) {
        case .success(let part): return .success(Resolved(part: part, target: target.name, steps: steps, state: state))
        case .failure(let error):
            // `count` of what has no field of that name: its length.
            guard steps.last == .field("count"), case .success(let whole) = StatePath.resolve(state, Array(steps.dropLast())),
                let count = length(of: whole)
            else { return .failure(Problem(message: error.message, column: path.column)) }
            return .success(Resolved(part: count, target: target.name, steps: steps, state: state))
        }
    }

    private static func length(of value: Any) -> Int? {
        let unwrapped = ValueChildren.unwrapped(value)
        if let text = unwrapped as? String { return text.count }
        let mirror = ValueChildren.mirror(unwrapped)
        switch mirror.displayStyle {
        case .collection, .set, .dictionary: return mirror.children.count
        default: return nil
        }
    }

    /// A state's part as Foundation's JSON values (numbers, strings, `NSNull`, arrays, dictionaries).
    static func comparable(_ value: Any) -> Any {
        let line = JSONLine.write(["v": ValueText.json(value)])
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["v"] ?? NSNull()
    }

    /// Whether the argument was written in quotes: its column holds a `"` in the line as typed.
    private static func wasQuoted(_ argument: Located<String>, in line: String?) -> Bool {
        guard let line, let index = index(of: argument.column, in: line), index < line.endIndex else { return false }
        return line[index] == "\""
    }

    /// Where column `column` (from 1) is in `line`; nil past its end.
    private static func index(of column: Int, in line: String) -> String.Index? {
        column >= 1 ? line.index(line.startIndex, offsetBy: column - 1, limitedBy: line.endIndex) : nil
    }

    /// The line as typed from `column` on, trimmed.
    private static func rest(of line: String?, from column: Int) -> String? {
        guard let line, let index = index(of: column, in: line) else { return nil }
        return line[index...].trimmingCharacters(in: .whitespaces)
    }

    /// VALUE as typed: JSON when it reads as JSON (`3`, `true`, `null`, `[1, 2]`), else one bare word as a
    /// string; nil for several words that are not JSON.
    static func expected(_ text: String) -> Any? {
        if text == "nil" { return NSNull() }
        if let json = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) { return json }
        return text.contains(where: \.isWhitespace) ? nil : text
    }

    static func holds(_ actual: Any, _ op: String, _ expected: Any) -> Result<Bool, Problem> {
        switch op {
        case "==": return .success(equal(actual, expected))
        case "!=": return .success(!equal(actual, expected))
        case "contains":
            if let text = actual as? String, let part = expected as? String { return .success(text.contains(part)) }
            if let list = actual as? [Any] { return .success(list.contains { equal($0, expected) }) }
            if let object = actual as? [String: Any], let key = expected as? String { return .success(object[key] != nil) }
            return .failure(Problem(message: "contains needs a string, a list or an object, not \(describe(actual))", column: 0))
        default:
            let order: ComparisonResult
            if let left = actual as? NSNumber, let right = expected as? NSNumber, !(actual is String), !isBoolean(left), !isBoolean(right) {
                order = left.compare(right)
            } else if let left = actual as? String, let right = expected as? String {
                order = left < right ? .orderedAscending : left == right ? .orderedSame : .orderedDescending
            } else {
                return .failure(
                    Problem(message: "\(op) compares two numbers or two strings, not \(describe(actual)) and \(describe(expected))", column: 0))
            }
            switch op {
            case "<": return .success(order == .orderedAscending)
            case "<=": return .success(order != .orderedDescending)
            case ">": return .success(order == .orderedDescending)
            default: return .success(order != .orderedAscending)
            }
        }
    }

    private static func equal(_ left: Any, _ right: Any) -> Bool {
        // Foundation's numbers hold JSON's booleans too, and `true` equals `1` there: not here.
        if isBoolean(left) != isBoolean(right) { return false }
        return (left as? NSObject)?.isEqual(right) ?? false
    }

    /// Whether a JSON value is `true` or `false` (a boolean NSNumber, whose type is a char), not a number.
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber, !(value is String) else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// A JSON value as `:assert` names it in a message.
    static func describe(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if isBoolean(value), let flag = value as? NSNumber { return flag.boolValue ? "true" : "false" }
        // As a command writes a string: a quote or a newline inside escaped, so the message reads one string.
        if let text = value as? String { return LineParser.literal(text) }
        guard JSONSerialization.isValidJSONObject(value), let data = try? JSONSerialization.data(withJSONObject: value, options: .sortedKeys)
        else { return "\(value)" }
        return String(decoding: data, as: UTF8.self).clipped
    }
}
