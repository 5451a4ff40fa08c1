import Foundation
import KarcSession

/// A part of the output that differs on every run (a date, a UUID, a
/// duration, an id), written `<NAME>` in a transcript's expectations.
///
/// `#mask NAME` takes a built-in pattern (``builtIns``); `#mask NAME PATTERN`
/// gives one (an ICU regular expression, as `NSRegularExpression` reads it).
/// Each match in what a command printed is replaced by `<NAME>` before it is
/// compared, and `karc check --update` writes the placeholder.
struct TranscriptMask {
    let name: String
    let pattern: String
    private let expression: NSRegularExpression

    /// The masks a script can name without a pattern.
    static let builtIns: KeyValuePairs<String, String> = [
        "uuid": "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
        "date": #"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?"#,
        "duration": #"\d+(\.\d+)? ?(ns|µs|us|ms|s|m|h)\b"#,
        "time": #"\b\d{2}:\d{2}:\d{2}\b"#,
    ]

    init(name: String, pattern: String) throws {
        self.name = name
        self.pattern = pattern
        expression = try NSRegularExpression(pattern: pattern)
    }

    /// The mask a `#mask` line declares; nil for any other line.
    static func parse(_ line: String, at number: Int) throws(Transcript.Problem) -> TranscriptMask? {
        guard line.hasPrefix(CheckLine.maskKeyword), line.dropFirst(CheckLine.maskKeyword.count).first.map({ $0 == " " || $0 == "\t" }) ?? true else {
            return nil
        }
        let rest = line.dropFirst(CheckLine.maskKeyword.count).drop { $0 == " " || $0 == "\t" }
        let name = String(rest.prefix { !($0 == " " || $0 == "\t") })
        let pattern = String(rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" })
        let known = builtIns.map(\.key).joined(separator: ", ")
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw .init(
                line: number, message: "a mask needs a name of letters, digits, - and _: #mask NAME (built in: \(known)) or #mask NAME PATTERN")
        }
        if pattern.isEmpty {
            guard let builtIn = builtIns.first(where: { $0.key == name }) else {
                throw .init(line: number, message: "no built-in mask named '\(name)' (built in: \(known)); give a pattern: #mask \(name) PATTERN")
            }
            // The built-in patterns are valid (a test compiles each).
            return try? TranscriptMask(name: name, pattern: builtIn.value)
        }
        do {
            return try TranscriptMask(name: name, pattern: pattern)
        } catch {
            throw .init(line: number, message: "the pattern of mask '\(name)' is not a regular expression: \(pattern)")
        }
    }

    /// The built-in masks (in their order) that some line of `outputs`
    /// matches and `declared` does not name: what `karc check --update`
    /// adds, since a time of day or a duration differs on every run.
    static func builtInsNeeded(by outputs: [[String]], declared: [TranscriptMask]) -> [String] {
        builtIns.compactMap { name, pattern in
            guard !declared.contains(where: { $0.name == name }), let mask = try? TranscriptMask(name: name, pattern: pattern) else { return nil }
            let matches = outputs.contains { lines in
                lines.contains { line in mask.expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil }
            }
            return matches ? name : nil
        }
    }

    /// `line` with every match of each mask, in order, replaced by its `<NAME>`.
    static func apply(_ masks: [TranscriptMask], to line: String) -> String {
        masks.reduce(line) { text, mask in
            let range = NSRange(text.startIndex..., in: text)
            return mask.expression.stringByReplacingMatches(
                in: text, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: "<\(mask.name)>"))
        }
    }
}
