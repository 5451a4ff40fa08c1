import CustomDump
import Foundation
import KarcCommand
import KarcLanguage

/// Values written as Swift source, for a generated test.
package enum SwiftLiteral {
    /// `text` as a string literal: `"…"` on one line, else a `"""` block
    /// whose lines are indented by `indent` (as is its closing delimiter);
    /// raw (`#"…"#`) when it holds quotes or backslashes, with enough `#`
    /// that nothing in the text ends it or reads as an escape.
    package static func string(_ text: String, indent: String) -> String {
        // A control character (a NUL, an escape) is written as an escape, as the command language writes it
        // (Swift reads the same escapes): raw in the source it would be invisible, or worse.
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }) {
            return LineParser.literal(text)
        }
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

    /// A command as Swift (``swift(_:indent:width:initializer:)``), else, when
    /// it is `Codable`, decoded from its JSON by the test; nil otherwise.
    package static func value(
        _ value: any Sendable, indent: String, initializer: @escaping (Any.Type) -> [MemberwiseInitializer.Parameter]? = { _ in nil }
    ) -> String? {
        if let written = swift(value, indent: indent, initializer: initializer) { return written }
        guard let json = json(value) else { return nil }
        return "try decoded(\(ValueText.typeName(value)).self, json: \(string(json, indent: indent)))"
    }

    /// A value as a Swift expression: an enum case whose payload is plain
    /// values is written as its dump (which is Swift for it:
    /// `Cart.add(name: "fig", quantity: 1)`), a struct with the initializer
    /// `initializer` names for its type (`@Command` and `@Memberwise`
    /// record it) as a call of it (`Articles.Add(title: "Hi")`, so a renamed
    /// field breaks the test's build), and so on inside; nil when a part is
    /// none of those. One line when it fits in `width` columns after
    /// `indent`, else one argument or element a line, each indented a level
    /// more.
    package static func swift(
        _ value: any Sendable, indent: String, width: Int = 120,
        initializer: @escaping (Any.Type) -> [MemberwiseInitializer.Parameter]? = { _ in nil }
    ) -> String? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum || mirror.displayStyle == .struct else { return nil }
        return SwiftExpression.of(value, initializer: initializer)?.written(indent: indent, width: width)
    }

    /// The value's JSON, keys sorted, as `JSONEncoder` writes it (what `JSONDecoder` reads back).
    package static func json(_ value: any Sendable) -> String? {
        guard let encodable = value as? any Encodable, type(of: value) is any Decodable.Type else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(encodable)).map { String(decoding: $0, as: UTF8.self) }
    }
}
