import KarcRendering

/// JSON read to tell a user what is wrong with a file Foundation refused or
/// that does not fit a type: where it breaks (a byte, what was open, the
/// path to it) and each number as written. Not the way snapshot files are
/// read (Foundation does that); the way their problems are put in words.
package enum JSONScan {
    /// A JSON value; a number keeps its text (`9223372036854775808`, `1.50`).
    package indirect enum Value {
        case object([(key: String, value: Value)])
        case array([Value])
        case string(String)
        case number(String)
        case bool(Bool)
        case null

        /// What a user would call it: `a string`, `a number (3)`, `null`, `a list`.
        package var described: String {
            switch self {
            case .object: "an object"
            case .array: "a list"
            case .string: "a string"
            case .number(let text): "a number (\(text))"
            case .bool(let value): "\(value)"
            case .null: "null"
            }
        }

        /// The value as JSON text again.
        package var text: String {
            switch self {
            case .object(let fields): "{" + fields.map { JSONScan.quoted($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
            case .array(let items): "[" + items.map(\.text).joined(separator: ",") + "]"
            case .string(let string): JSONScan.quoted(string)
            case .number(let text): text
            case .bool(let value): "\(value)"
            case .null: "null"
            }
        }
    }

    /// Why the text is not JSON, in words: `it ends at byte 812, inside an object (articles.items[3])`.
    package struct SyntaxError: Error {
        package let message: String
    }

    /// The value `text` holds, or where and why it is not JSON. Trailing
    /// white space is not counted: a file cut short ends at its last byte.
    package static func parse(_ text: String) throws(SyntaxError) -> Value {
        var bytes = Array(text.utf8)
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        guard reader.index < bytes.count else { throw SyntaxError(message: "it is empty") }
        let value = try reader.value()
        reader.skipSpace()
        if reader.index < bytes.count { throw reader.unexpected("the end of the file after the first value") }
        return value
    }

    package static func quoted(_ string: String) -> String {
        ValueText.encoded(string) ?? "\"\(string)\""
    }

    package static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

/// Reads one value at a time, keeping what is open around it.
private struct Reader {
    package enum Open {
        case object, array, string
    }
    /// JSON nested deeper is refused (a stack is finite).
    package static let maximumDepth = 512

    package let bytes: [UInt8]
    package var index = 0
    /// What is open around `index`, outermost first, with the step into it (a field's name or an index).
    package var open: [(kind: Open, step: StatePath.Step?)] = []

    package init(bytes: [UInt8]) { self.bytes = bytes }

    package mutating func skipSpace() {
        while index < bytes.count, JSONScan.isSpace(bytes[index]) { index += 1 }
    }

    package mutating func value() throws(JSONScan.SyntaxError) -> JSONScan.Value {
        skipSpace()
        guard index < bytes.count else { throw ended() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default:
            for (word, value) in [("true", JSONScan.Value.bool(true)), ("false", .bool(false)), ("null", .null)] where matches(word) {
                index += word.utf8.count
                return value
            }
            throw unexpected("a value")
        }
    }

    private mutating func object() throws(JSONScan.SyntaxError) -> JSONScan.Value {
        try enter(.object)
        var fields: [(key: String, value: JSONScan.Value)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            open.removeLast()
            return .object(fields)
        }
        while true {
            skipSpace()
            guard index < bytes.count else { throw ended() }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw unexpected(fields.isEmpty ? "a field's name in quotes or '}'" : "a field's name in quotes")
            }
            let key = try string()
            try expect(":", "':' after the field's name")
            open[open.count - 1].step = .field(key)
            fields.append((key, try value()))
            open[open.count - 1].step = nil
            if try closes(with: "}") { return .object(fields) }
        }
    }

    private mutating func array() throws(JSONScan.SyntaxError) -> JSONScan.Value {
        try enter(.array)
        var items: [JSONScan.Value] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            open.removeLast()
            return .array(items)
        }
        while true {
            open[open.count - 1].step = .index(items.count)
            items.append(try value())
            open[open.count - 1].step = nil
            if try closes(with: "]") { return .array(items) }
        }
    }

    /// After an element: a ',' (false: another follows) or `closer`, which ends what is open (true).
    private mutating func closes(with closer: Unicode.Scalar) throws(JSONScan.SyntaxError) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw ended() }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return false
        case UInt8(ascii: closer):
            index += 1
            open.removeLast()
            return true
        default:
            throw unexpected("',' or '\(closer)'")
        }
    }

    private mutating func string() throws(JSONScan.SyntaxError) -> String {
        open.append((.string, nil))
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                open.removeLast()
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard index + 1 < bytes.count else {
                    index += 1
                    throw ended()
                }
                index += 1
                let escaped: [UInt8: Unicode.Scalar] = [
                    UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{8}",
                    UInt8(ascii: "f"): "\u{C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
                ]
                if let scalar = escaped[bytes[index]] {
                    scalars.append(scalar)
                    index += 1
                } else if bytes[index] == UInt8(ascii: "u") {
                    let digits = bytes[(index + 1)..<min(index + 5, bytes.count)]
                    guard digits.count == 4, let code = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else {
                        if digits.count < 4, index + digits.count + 1 >= bytes.count { throw ended() }
                        throw unexpected("four hexadecimal digits after \\u")
                    }
                    // A surrogate half alone stands for nothing a string can hold: the replacement character.
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    index += 5
                } else {
                    throw unexpected("an escape (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u)")
                }
            case ..<0x20:
                throw unexpected("'\"' to end the string (a line break or a tab in a string is written \\n or \\t)")
            default:
                run.append(byte)
                index += 1
            }
        }
        throw ended()
    }

    private mutating func number() throws(JSONScan.SyntaxError) -> JSONScan.Value {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { throw index < bytes.count ? unexpected("a digit") : ended() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw index < bytes.count ? unexpected("a digit after '.'") : ended() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw index < bytes.count ? unexpected("a digit in the exponent") : ended() }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if let value = Double(text), !value.isFinite {
            index = start
            throw failure("the number \(text) is too large for any number type")
        }
        return .number(text)
    }

    private func matches(_ word: String) -> Bool {
        bytes[index...].starts(with: word.utf8)
    }

    private mutating func enter(_ kind: Open) throws(JSONScan.SyntaxError) {
        guard open.count < Self.maximumDepth else { throw failure("it is nested more than \(Self.maximumDepth) deep") }
        open.append((kind, nil))
        index += 1
    }

    private mutating func expect(_ byte: Character, _ what: String) throws(JSONScan.SyntaxError) {
        skipSpace()
        guard index < bytes.count else { throw ended() }
        guard bytes[index] == byte.asciiValue else { throw unexpected(what) }
        index += 1
    }

    /// `it ends at byte 812, inside an object (articles.items[3])`.
    package func ended() -> JSONScan.SyntaxError {
        JSONScan.SyntaxError(message: "it ends at byte \(bytes.count)" + inside)
    }

    /// `at byte 29, inside a list (articles.items): expected ',' or ']', found 'x'`.
    package func unexpected(_ expected: String) -> JSONScan.SyntaxError {
        let byte = bytes[index]
        let found: String =
            switch byte {
            case 0x0A, 0x0D: "a line break"
            case 0x09: "a tab"
            case ..<0x20: "a control character"
            case 0x80...: "'\(String(decoding: bytes[index...].prefix(4), as: UTF8.self).prefix(1))'"
            default: "'\(Character(Unicode.Scalar(byte)))'"
            }
        return failure("expected \(expected), found \(found)")
    }

    private func failure(_ problem: String) -> JSONScan.SyntaxError {
        JSONScan.SyntaxError(message: "at byte \(index + 1)" + inside + ": " + problem)
    }

    /// `, inside an object (articles.items[3])`: what is open, and where it is.
    private var inside: String {
        guard let innermost = open.last else { return "" }
        let kind =
            switch innermost.kind {
            case .object: "an object"
            case .array: "a list"
            case .string: "a string"
            }
        var steps = open.compactMap(\.step)
        // A snapshot's states are under "states": their paths are written as the shell writes a state's.
        if case .field("states")? = steps.first, steps.count > 1 { steps.removeFirst() }
        return ", inside \(kind)" + (steps.isEmpty ? "" : " (\(StatePath.text(steps)))")
    }
}
