import CustomDump
import Foundation

/// Values written as Swift source, for a generated test.
package enum SwiftLiteral {
    /// `text` as a string literal: `"…"` on one line, else a `"""` block
    /// whose lines are indented by `indent` (as is its closing delimiter);
    /// raw (`#"…"#`) when it holds quotes or backslashes, with enough `#`
    /// that nothing in the text ends it or reads as an escape.
    package static func string(_ text: String, indent: String) -> String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "#" ? run + 1 : 0
            longest = max(longest, run)
        }
        let plain = !text.contains("\\") && !text.contains("\"")
        let hashes = plain ? "" : String(repeating: "#", count: longest + 1)
        guard text.contains(where: \.isNewline) else { return "\(hashes)\"\(text)\"\(hashes)" }
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }
        return "\(hashes)\"\"\"\n" + body.joined(separator: "\n") + "\n\(indent)\"\"\"\(hashes)"
    }

    /// A command as Swift: an enum case whose payload is plain values is
    /// written as its dump (which is Swift for it: `Cart.add(name: "fig", quantity: 1)`),
    /// a struct with the initializer `initializer` names for its type
    /// (`@Command` records it) as a call of it (`Articles.Add(title: "Hi")`,
    /// so a renamed field breaks the test's build); anything else
    /// `Encodable` is decoded from its JSON by the test; nil otherwise.
    package static func value(
        _ value: any Sendable, indent: String, initializer: @escaping (Any.Type) -> [String]? = { _ in nil }
    ) -> String? {
        let writer = Writer(indent: indent, initializer: initializer)
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .enum, let payload = writer.enumCase(value, mirror) {
            return ValueText.typeName(value) + payload
        }
        if mirror.displayStyle == .struct, let call = writer.call(value, mirror) {
            return ValueText.typeName(value) + call
        }
        guard let json = json(value) else { return nil }
        return "try decoded(\(ValueText.typeName(value)).self, json: \(string(json, indent: indent)))"
    }

    /// Writes values as Swift expressions, each struct with its type's initializer when known.
    private struct Writer {
        let indent: String
        let initializer: (Any.Type) -> [String]?

        /// `.case` or `.case(label: literal, …)`; nil when the payload is not plain values.
        func enumCase(_ value: Any, _ mirror: Mirror) -> String? {
            guard let child = mirror.children.first else {
                // A case without a payload has no child: its name is its default description.
                guard !(value is any CustomStringConvertible) else { return nil }
                let name = String(describing: value)
                guard let first = name.first, first.isLetter || first == "_", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    return nil
                }
                return "." + name
            }
            guard let name = child.label else { return nil }
            var written: [String] = []
            for argument in ValueChildren.payload(of: child) {
                guard let literal = literal(argument.value) else { return nil }
                written.append(argument.label.map { "\($0): \(literal)" } ?? literal)
            }
            return ".\(name)(\(written.joined(separator: ", ")))"
        }

        /// `(label: literal, …)`: the struct's initializer called with its
        /// stored fields; nil when its type has none known, or a field is
        /// not a value this writes.
        func call(_ value: Any, _ mirror: Mirror) -> String? {
            guard let labels = initializer(type(of: value)) else { return nil }
            let fields = Dictionary(mirror.children.compactMap { child in child.label.map { ($0, child.value) } }) { first, _ in first }
            var written: [String] = []
            for label in labels {
                guard let field = fields[label], let literal = literal(field) else { return nil }
                written.append("\(label): \(literal)")
            }
            return "(\(written.joined(separator: ", ")))"
        }

        /// Numbers, booleans, strings, optionals and arrays of them, enum
        /// cases and structs written as above; nil for anything else.
        func literal(_ value: Any) -> String? {
            switch value {
            case let text as String: return string(text, indent: indent)
            case let flag as Bool: return flag ? "true" : "false"
            case is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64: return "\(value)"
            case let number as Double: return number.isFinite ? "\(number)" : nil
            default:
                let mirror = Mirror(reflecting: value)
                switch mirror.displayStyle {
                case .optional?:
                    guard let wrapped = mirror.children.first?.value else { return "nil" }
                    return literal(wrapped)
                case .collection?:
                    let elements = mirror.children.map { literal($0.value) }
                    guard elements.allSatisfy({ $0 != nil }) else { return nil }
                    return "[" + elements.compactMap { $0 }.joined(separator: ", ") + "]"
                case .struct?:
                    return call(value, mirror).map { ValueText.typeName(value) + $0 }
                case .enum?:
                    return enumCase(value, mirror).map { ValueText.typeName(value) + $0 }
                default:
                    return nil
                }
            }
        }
    }

    /// The value's JSON, keys sorted, as `JSONEncoder` writes it (what `JSONDecoder` reads back).
    package static func json(_ value: any Sendable) -> String? {
        guard let encodable = value as? any Encodable, type(of: value) is any Decodable.Type else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(encodable)).map { String(decoding: $0, as: UTF8.self) }
    }
}
