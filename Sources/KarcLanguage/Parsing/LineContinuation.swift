/// Whether a command goes on on the next line: a `"` string, a `[` list or
/// a `{` object still open at a line's end, as psql and iex continue an
/// open statement. Scripts, the prompt and transcripts apply the same rule;
/// the parts are joined with a newline (whitespace between values, a
/// newline in a string).
///
/// It reads each line once, as it is added, keeping where it is (in a
/// string, how deep in lists and objects): a command of n lines costs n,
/// not n². Reads bytes: every delimiter is ASCII, and no byte of a
/// multi-byte UTF-8 character is.
package struct LineContinuation {
    /// What is still open, and where it opened.
    package struct Opening: Equatable {
        package enum Kind: Equatable {
            case string, list, object

            /// What the user must add to close it.
            package var closing: String {
                switch self {
                case .string: "\""
                case .list: "]"
                case .object: "}"
                }
            }

            package var opener: String {
                switch self {
                case .string: "\""
                case .list: "["
                case .object: "{"
                }
            }

            package var name: String {
                switch self {
                case .string: "string"
                case .list: "list"
                case .object: "JSON object"
                }
            }
        }

        package let kind: Kind
        /// The line it opened on: 0 for a command's first line.
        package let lineOffset: Int
        /// Its byte offset in that line.
        package let byteOffset: Int
    }

    /// A meta command's arguments hold no lists or objects (`:state a items[`): only a quote goes on.
    private var isMeta: Bool?
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var lines = 0
    /// The first delimiter that is still open: where the command stopped being whole.
    private(set) var opening: Opening?

    package init() {}

    /// Whether the lines added so far leave something open.
    package var isOpen: Bool { inString || depth > 0 }

    /// Reads the next line of the command.
    package mutating func add(_ line: String) {
        defer { lines += 1 }
        if isMeta == nil { isMeta = line.utf8.first { $0 != 0x20 && $0 != 0x09 } == UInt8(ascii: ":") }
        let isMeta = self.isMeta == true
        // Lines are joined with a newline, so each starts a word.
        var atWordStart = true
        var offset = -1
        for byte in line.utf8 {
            offset += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { opening = nil }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                if depth == 0 { opening = Opening(kind: .string, lineOffset: lines, byteOffset: offset) }
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard !isMeta else { break }
                if depth == 0 { opening = Opening(kind: byte == UInt8(ascii: "[") ? .list : .object, lineOffset: lines, byteOffset: offset) }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard !isMeta else { break }
                depth = max(0, depth - 1)
                if depth == 0 { opening = nil }
            // A comment starts a word outside any list or object: the rest of the line is not read.
            case UInt8(ascii: "#") where atWordStart && depth == 0:
                return
            default: break
            }
            atWordStart = byte == 0x20 || (0x09...0x0D).contains(byte)
        }
        // A string's escape does not reach past the line's end: the newline that joins them is the escaped character.
        if escaped { escaped = false }
    }

    /// Whether `line` alone leaves something open.
    package static func isOpen(_ line: String) -> Bool {
        var scanner = LineContinuation()
        scanner.add(line)
        return scanner.isOpen
    }
}
