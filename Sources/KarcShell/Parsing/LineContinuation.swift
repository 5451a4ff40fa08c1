/// Whether a line goes on on the next one: a `"` string, a `[` list or a
/// `{` object still open at its end, as psql and iex continue an open
/// statement. Scripts and the prompt apply the same rule; the parts are
/// joined with a newline (whitespace between values, a newline in a string).
enum LineContinuation {
    static func isOpen(_ line: String) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        var atWordStart = true
        for character in line {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "[", "{": depth += 1
            case "]", "}": depth = max(0, depth - 1)
            // A comment starts a word outside any list or object: the rest of the line is not read.
            case "#" where atWordStart && depth == 0: return false
            default: break
            }
            atWordStart = character.isSpace
        }
        return inString || depth > 0
    }
}
