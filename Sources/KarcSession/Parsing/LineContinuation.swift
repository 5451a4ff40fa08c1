/// Whether a line goes on on the next one: a `"` string, a `[` list or a
/// `{` object still open at its end, as psql and iex continue an open
/// statement. Scripts and the prompt apply the same rule; the parts are
/// joined with a newline (whitespace between values, a newline in a string).
enum LineContinuation {
    /// Reads bytes: every delimiter is ASCII, and no byte of a multi-byte
    /// UTF-8 character is (a script's every line goes through here).
    static func isOpen(_ line: String) -> Bool {
        // A meta command's arguments hold no lists or objects (`:state a items[`): only a quote goes on.
        let isMeta = line.utf8.first { $0 != 0x20 && $0 != 0x09 } == UInt8(ascii: ":")
        var depth = 0
        var inString = false
        var escaped = false
        var atWordStart = true
        for byte in line.utf8 {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): if !isMeta { depth += 1 }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): if !isMeta { depth = max(0, depth - 1) }
            // A comment starts a word outside any list or object: the rest of the line is not read.
            case UInt8(ascii: "#") where atWordStart && depth == 0: return false
            default: break
            }
            atWordStart = byte == 0x20 || (0x09...0x0D).contains(byte)
        }
        return inString || depth > 0
    }
}
