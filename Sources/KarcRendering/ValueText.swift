import CustomDump
import Foundation
import KarcAsync
import Synchronization

/// How the shell writes values: custom-dump text for people, JSON for tools.
package enum ValueText {
    /// The value as custom-dump prints it (`Counter(count: 2)`).
    package static func dump(_ value: Any) -> String {
        Dumper.dump(value)
    }

    /// The value on one line, for a trace or a diagram: custom-dump's text with
    /// its lines joined, cut to `limit` characters with `…`.
    /// A string of several lines is one literal with `\\n` in it, as Swift would write it on one line.
    package static func inline(_ value: Any, limit: Int = 60) -> String {
        let lines = joiningMultilineStrings(dump(value).split(separator: "\n").map(String.init)).map { $0.trimmingCharacters(in: .whitespaces) }
        var text = ""
        for line in lines {
            // `Counter(` + `count: 2` + `)`: no space after an opening or before a closing bracket.
            if !text.isEmpty, let last = text.last, !"([{".contains(last), !line.hasPrefix(")"), !line.hasPrefix("]"), !line.hasPrefix("}") {
                text += " "
            }
            text += line
        }
        guard text.count > limit else { return text }
        return String(text.prefix(max(1, limit - 1))) + "…"
    }

    /// custom-dump's lines with each multi-line string literal (`"""`, its
    /// lines, `"""`) made one line: `"hello\nworld"`, its indentation (the
    /// closing delimiter's) taken off each line, as Swift reads it.
    static func joiningMultilineStrings(_ lines: [String]) -> [String] {
        let delimiter = String(repeating: "\"", count: 3)
        var result: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            // An opening delimiter is the line's last word (`title: """`, `("""`); a closing one starts its line.
            let opens = line.trimmingCharacters(in: .whitespaces) == delimiter || line.hasSuffix(" " + delimiter) || line.hasSuffix("(" + delimiter)
            guard opens, let close = lines[(index + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(delimiter) })
            else {
                result.append(line)
                index += 1
                continue
            }
            let closing = lines[close]
            let indent = closing.prefix { $0 == " " }.count
            let body = lines[(index + 1)..<close].map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
            let escaped = body.joined(separator: "\n").replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            let after = closing.trimmingCharacters(in: .whitespaces).dropFirst(3)
            result.append(String(line.dropLast(3)) + "\"" + escaped + "\"" + after)
            index = close + 1
        }
        return result
    }

    /// The name of the value's type, with its enclosing types and without
    /// module prefixes: `CounterStore.State`, `Result<Account, AccountError>`.
    package static func typeName(_ value: Any) -> String {
        typeNames.name(of: type(of: value))
    }

    private static let typeNames = TypeNameCache { withoutModules(String(reflecting: $0)) }

    /// Drops the first component (the module) of every dotted name.
    package static func withoutModules(_ name: String) -> String {
        var result = ""
        var token = ""
        func flush() {
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            result += parts.count > 1 ? parts.dropFirst().joined(separator: ".") : token
            token = ""
        }
        for character in name {
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                token.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    /// The value as JSON (a ``RawJSON``): encoded when it is `Encodable`, else
    /// its parts as reflection shows them (``ReflectedJSON``); a `Result` as
    /// `{"success": …}` or `{"failure": …}`.
    package static func json(_ value: Any) -> any JSONValue {
        if let result = value as? any FailableReply {
            // The error itself when it is `Encodable` (its cases and fields), else its description.
            if let failure = result.failure {
                if let encodable = failure as? any Encodable, let text = JSONText.encode(encodable) {
                    return ["failure": RawJSON(text: text)] as JSONObject
                }
                return ["failure": "\(failure)"] as JSONObject
            }
            return ["success": result.success.map(json) ?? JSONNull()] as JSONObject
        }
        if let encodable = value as? any Encodable, let text = encoded(encodable) { return RawJSON(text: text) }
        // Not `Encodable`: its parts as reflection shows them; its dump only when even that gives up (a number that is not finite).
        if let text = JSONText.encode(ReflectedJSON(value)) { return RawJSON(text: text) }
        return dump(value)
    }

    /// `value`'s JSON text, as `JSONEncoder` writes it with sorted keys
    /// (``JSONText`` where it can, `JSONEncoder` for the rest); nil when it throws.
    package static func encoded(_ value: any Encodable) -> String? {
        if let text = JSONText.encode(value) { return text }
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The value's JSON (as ``json(_:)`` writes it) as a tree, sharing the
    /// nodes of `old`, an earlier value's tree, where the two agree.
    package static func tree(_ value: Any, reusing old: JSONText.Node?, prefixes: ComparedPrefixes? = nil) -> JSONText.Node {
        if !(value is any FailableReply) {
            let encodable = value as? any Encodable ?? ReflectedJSON(value)
            if let tree = JSONText.tree(encodable, reusing: old, prefixes: prefixes) { return tree }
        }
        return JSONText.Node(json: json(value))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A failure carried by a reply (`Result.failure`), if it is one.
    package static func failure(in reply: Any) -> (any Error)? {
        (reply as? any FailableReply)?.failure
    }
}

/// A reply that may be a failure: `Result`.
package protocol FailableReply {
    var failure: (any Error)? { get }
    var success: Any? { get }
}

extension Result: FailableReply {
    package var success: Any? {
        if case .success(let value) = self { return value }
        return nil
    }

    package var failure: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
