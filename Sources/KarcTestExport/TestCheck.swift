import Foundation
import KarcLanguage
import KarcRendering

/// An `:assert` written as Swift Testing's `#expect` on the target's state,
/// read through the state's Swift type: `:assert articles.items.count == 1`
/// is `#expect(try #require(await store.state("articles", as: Articles.self)).items.count == 1)`.
/// What Swift cannot say as the shell does (a value given as JSON, a
/// comparison of an optional part's order) is a comment that says why.
package enum TestCheck {
    /// The lines for `check`: the `:assert` as a comment, then the `#expect` or why there is none.
    package static func lines(_ check: TestStep.Check, origin: String, indent: String) -> [String] {
        var lines = origin.split(separator: "\n", omittingEmptySubsequences: false).map { "// \($0)" }
        guard check.held else {
            lines.append("// It did not hold in the session, so the test does not expect it.")
            return lines
        }
        switch expectation(check, indent: indent) {
        case .success(let expect): lines.append(expect)
        case .failure(let reason): lines.append("// Not expected here: \(reason.message).")
        }
        return lines
    }

    struct Reason: Error {
        package let message: String
    }

    /// What a part of the state is, as far as a comparison written in Swift cares.
    private enum Kind {
        case string, number, bool, other
        case list([Any])
        case dictionary([(key: Any, value: Any)])

        package var isString: Bool {
            if case .string = self { true } else { false }
        }
    }

    private static func expectation(_ check: TestStep.Check, indent: String) -> Result<String, Reason> {
        let stateType = ValueText.typeName(check.state)
        let root = "try #require(await store.state(\(SwiftLiteral.string(check.target, indent: indent)), as: \(stateType).self))"
        let access: (path: String, part: Any, optional: Bool)
        switch path(check.steps, in: check.state) {
        case .success(let walked): access = walked
        case .failure(let reason): return .failure(reason)
        }
        let subject = root + access.path
        let partKind = kind(of: ValueChildren.unwrapped(access.part))
        switch check.op {
        case "contains":
            let call: String
            switch partKind {
            case .string:
                guard let needle = literal(check, for: .string) else { return .failure(Reason(message: "contains on a string takes a string")) }
                call = ".contains(\(needle))"
            case .list(let elements):
                guard let first = elements.first.map({ kind(of: ValueChildren.unwrapped($0)) }), let needle = literal(check, for: first) else {
                    return .failure(Reason(message: "the list's elements are not plain values, and \(check.expected) is JSON"))
                }
                call = ".contains(\(needle))"
            case .dictionary(let entries):
                guard entries.first.map({ $0.key is String }) ?? true, let key = literal(check, for: .string) else {
                    return .failure(Reason(message: "contains on a dictionary takes a string key"))
                }
                call = ".keys.contains(\(key))"
            default:
                return .failure(Reason(message: "contains needs a string, a list or a dictionary"))
            }
            return .success("#expect(\(subject)\(access.optional ? "?" : "")\(call)\(access.optional ? " == true" : ""))")
        case "==", "!=":
            if check.expected == "null" || check.expected == "nil", !check.quoted {
                return .success("#expect(\(subject) \(check.op) nil)")
            }
            guard let value = literal(check, for: partKind) else {
                return .failure(
                    Reason(message: "\(check.expected) is not a plain value of the part's Swift type (\(ValueText.typeName(access.part)))"))
            }
            return .success("#expect(\(subject) \(check.op) \(value))")
        default:
            guard !access.optional else {
                return .failure(Reason(message: "the path goes through an optional, and Swift does not order optionals"))
            }
            guard let value = literal(check, for: partKind) else {
                return .failure(Reason(message: "\(check.expected) is not a number or a string of the part's Swift type"))
            }
            return .success("#expect(\(subject) \(check.op) \(value))")
        }
    }

    /// `.items[0].title`, with `?` after each optional on the way, as the
    /// steps walk `state` (a field by its Swift name, however it was typed;
    /// `count` of what has no such field is its length).
    private static func path(_ steps: [StatePath.Step], in state: Any) -> Result<(path: String, part: Any, optional: Bool), Reason> {
        var written = ""
        var current: Any = state
        var optional = false
        for step in steps {
            if current is any OptionalType {
                optional = true
                written += "?"
            }
            let value = ValueChildren.unwrapped(current)
            if current is any OptionalType, (value as? any OptionalType) != nil {
                return .failure(Reason(message: "the path goes through nil"))
            }
            switch step {
            case .field(let name):
                let fields = Mirror(reflecting: value).children.compactMap { child in child.label.map { ($0, child.value) } }
                if let found = fields.first(where: { $0.0 == name }) ?? fields.first(where: { Names.matches(name, $0.0) }),
                    !found.0.hasPrefix("_")
                {
                    written += "." + found.0
                    current = found.1
                } else if name == "count" {
                    written += ".count"
                    current = Mirror(reflecting: value).children.count
                } else {
                    return .failure(Reason(message: "\(name) is not a stored field of \(ValueText.typeName(value)) a test can read"))
                }
            case .index(let index):
                let elements = Array(Mirror(reflecting: value).children)
                guard elements.indices.contains(index) else { return .failure(Reason(message: "[\(index)] is past the end")) }
                written += "[\(index)]"
                current = elements[index].value
            case .key(let key):
                guard let entry = ValueChildren.entries(of: Mirror(reflecting: value)).first(where: { "\($0.key)" == key }) else {
                    return .failure(Reason(message: "no key \(key)"))
                }
                switch entry.key {
                case let text as String: written += "[\(SwiftLiteral.string(text, indent: ""))]"
                case let number as Int: written += "[\(number)]"
                default: return .failure(Reason(message: "the key \(key) is not a string or a number"))
                }
                // A dictionary's subscript is optional.
                current = Optional(entry.value) as Any
            }
        }
        return .success((written, current, optional || current is any OptionalType))
    }

    private static func kind(of value: Any) -> Kind {
        switch value {
        case is String: return .string
        case is Bool: return .bool
        case is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64, is Double, is Float: return .number
        default:
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .collection?, .set?: return .list(mirror.children.map(\.value))
            case .dictionary?: return .dictionary(ValueChildren.entries(of: mirror))
            default: return .other
            }
        }
    }

    /// The value as typed, as a Swift literal of `kind`; nil when it is not one (JSON for a list, a word for a number).
    private static func literal(_ check: TestStep.Check, for kind: Kind) -> String? {
        if check.quoted { return kind.isString ? SwiftLiteral.string(check.expected, indent: "") : nil }
        let parsed = try? JSONSerialization.jsonObject(with: Data(check.expected.utf8), options: .fragmentsAllowed)
        switch kind {
        case .string:
            if let text = parsed as? String { return SwiftLiteral.string(text, indent: "") }
            // One bare word is a string, as :assert reads it.
            return parsed == nil && !check.expected.contains(where: \.isWhitespace) ? SwiftLiteral.string(check.expected, indent: "") : nil
        case .bool:
            return check.expected == "true" || check.expected == "false" ? check.expected : nil
        case .number:
            return parsed is NSNumber && !(check.expected == "true" || check.expected == "false") ? check.expected : nil
        default:
            return nil
        }
    }
}
