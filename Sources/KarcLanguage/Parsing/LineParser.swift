/// Parses one line of the command language (see `docs/shell.md`):
///
/// ```
/// counter.increment value=2
/// identity.login email=jill@example.com password="s3cret pass"
/// articles.add {"title": "Hello"}
/// :wait ReceivedMessage 5s
/// # a comment
/// ```
///
/// Values: integers, decimals, `true`/`false`, `nil`, "double-quoted
/// strings" with `\"`, `\\`, `\n`, `\t`, `\u{…}` escapes, bare words,
/// `[a, b]` lists (nested up to 32 deep), `{json}` objects. Every error
/// names the column where the problem is.
package struct LineParser {
    private let characters: [Character]
    private var index = 0

    /// Lists nest at most this deep (a hostile line cannot exhaust the stack).
    package static let maximumDepth = 32

    /// The line's parts; `example`, a command of the cluster's
    /// (`cart.add`), is what an error shows a command looks like.
    package static func parse(_ line: String, example: String = "counter.increment") throws(LineError) -> ShellLine {
        // An ASCII line's characters are its bytes: no grapheme breaking needed.
        let characters = line.utf8.allSatisfy { $0 < 0x80 } ? line.utf8.map { Character(Unicode.Scalar($0)) } : Array(line)
        var parser = LineParser(characters: characters, example: example)
        return try parser.parseLine()
    }

    private let example: String

    private init(characters: [Character], example: String) {
        self.characters = characters
        self.example = example
    }

    private var column: Int { index + 1 }
    private var current: Character? { index < characters.count ? characters[index] : nil }

    private mutating func skipSpaces() {
        while let character = current, character.isSpace { index += 1 }
    }

    private mutating func parseLine() throws(LineError) -> ShellLine {
        skipSpaces()
        guard let first = current, first != "#" else { return .empty }
        if first == ":" { return try parseMeta() }
        return .command(try parseInvocation())
    }

    private mutating func parseMeta() throws(LineError) -> ShellLine {
        index += 1
        let nameColumn = column
        let name = word()
        guard !name.isEmpty else { throw LineError(column: nameColumn, "expected a meta command after ':' (try :help)") }
        var arguments: [Located<String>] = []
        while true {
            skipSpaces()
            guard let character = current else { break }
            if character == "#" { break }
            let start = column
            if character == "\"" {
                arguments.append(Located(try quoted(), column: start))
            } else {
                arguments.append(Located(argument(), column: start))
            }
        }
        return .meta(name: Located(name, column: nameColumn), arguments: arguments)
    }

    /// Characters up to the next space.
    private mutating func word() -> String {
        take { !$0.isSpace }
    }

    /// A meta command's argument: characters up to the next space outside a
    /// `[…]` and a string in it, so a path to a key with a space
    /// (`items["a b"]`, as completion writes it) is one argument.
    private mutating func argument() -> String {
        var text = ""
        var (depth, quoted, escaped) = (0, false, false)
        while let character = current {
            if quoted {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                }
            } else if character.isSpace, depth == 0 {
                break
            } else if character == "[" {
                depth += 1
            } else if character == "]" {
                depth = max(0, depth - 1)
            } else if character == "\"", depth > 0 {
                quoted = true
            }
            text.append(character)
            index += 1
        }
        return text
    }

    /// The characters from here on while `isIncluded` holds.
    private mutating func take(while isIncluded: (Character) -> Bool) -> String {
        var text = ""
        while let character = current, isIncluded(character) {
            text.append(character)
            index += 1
        }
        return text
    }

    private mutating func parseInvocation() throws(LineError) -> Invocation {
        let targetColumn = column
        let target = take { $0 != "." && !$0.isSpace }
        guard current == "." else {
            throw LineError(
                column: targetColumn, "expected TARGET.COMMAND (like \(example)), got '\(target.clipped)'; :help lists the targets")
        }
        guard !target.isEmpty else { throw LineError(column: targetColumn, "missing target name before '.'") }
        index += 1
        let commandColumn = column
        let command = take { !$0.isSpace && $0 != "{" }
        guard !command.isEmpty else {
            throw LineError(column: commandColumn, "missing command name after '\(target.clipped).'; :help \(target.clipped) lists its commands")
        }
        skipSpaces()
        if current == "{" {
            let start = column
            let json = String(characters[index...]).trimmingTrailingWhitespace()
            index = characters.count
            return Invocation(
                target: Located(target, column: targetColumn), command: Located(command, column: commandColumn),
                body: .json(Located(json, column: start)))
        }
        var arguments: [FieldArgument] = []
        while true {
            skipSpaces()
            guard let character = current, character != "#" else { break }
            arguments.append(try parseArgument())
        }
        return Invocation(target: Located(target, column: targetColumn), command: Located(command, column: commandColumn), body: .fields(arguments))
    }

    private mutating func parseArgument() throws(LineError) -> FieldArgument {
        let nameColumn = column
        let name = take { $0 != "=" && !$0.isSpace }
        guard current == "=" else {
            throw LineError(column: nameColumn, "expected field=value, got '\(name.clipped)'")
        }
        guard !name.isEmpty else { throw LineError(column: nameColumn, "missing field name before '='") }
        index += 1
        let valueColumn = column
        guard let character = current, !character.isSpace else {
            throw LineError(column: valueColumn, "missing value after '\(name.clipped)=' (write nil for no value)")
        }
        let value = try parseValue(depth: 0, inList: false)
        return FieldArgument(name: Located(name, column: nameColumn), value: Located(value, column: valueColumn))
    }

    private mutating func parseValue(depth: Int, inList: Bool) throws(LineError) -> ShellValue {
        switch current {
        case "\"":
            return .string(try quoted(), quoted: true)
        case "[":
            return try list(depth: depth + 1)
        case "{":
            return .json(try jsonObject())
        default:
            let start = column
            var text = ""
            while let character = current, !character.isSpace, !(inList && (character == "," || character == "]")) {
                if character == "\"" || character == "[" {
                    throw LineError(column: column, "unexpected '\(character)' inside the bare word '\(text.clipped)'; quote the whole value")
                }
                text.append(character)
                index += 1
            }
            guard !text.isEmpty else { throw LineError(column: start, "expected a value") }
            return Self.scalar(text)
        }
    }

    /// A bare word: a number, `true`/`false`, `nil`, or a string.
    package static func scalar(_ text: String) -> ShellValue {
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "nil", "null": return .null
        default: break
        }
        if let integer = Int(text) { return .int(integer, text: text) }
        if text.first.map({ $0.isNumber || $0 == "-" || $0 == "." }) == true, let decimal = Double(text), decimal.isFinite {
            return .decimal(decimal, text: text)
        }
        return .string(text, quoted: false)
    }

    /// `text` as a command writes a string: in double quotes, with what the
    /// language escapes escaped (`\"`, `\\`, `\n`, `\t`, `\r`, `\0`, and
    /// `\u{hex}` for any other control character), so ``string(startingWith:)``
    /// (and Swift) reads it back as it was.
    package static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\0": out += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// The string literal `text` starts with (its `"`), read with the
    /// language's escapes, and how many characters it took, closing quote included.
    package static func string(startingWith text: some Sequence<Character>) throws(LineError) -> (value: String, length: Int) {
        var parser = LineParser(characters: Array(text), example: "")
        let value = try parser.quoted()
        return (value, parser.index)
    }

    private mutating func quoted() throws(LineError) -> String {
        let start = column
        index += 1
        var text = ""
        while let character = current {
            index += 1
            switch character {
            case "\"":
                return text
            case "\\":
                text.append(try escape())
            default:
                text.append(character)
            }
        }
        throw LineError(column: start, "unterminated string: add a closing '\"'")
    }

    private mutating func escape() throws(LineError) -> Character {
        let start = column - 1
        guard let character = current else { throw LineError(column: start, "unterminated string: a '\\' ends the line") }
        index += 1
        switch character {
        case "\"": return "\""
        case "\\": return "\\"
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "0": return "\0"
        case "u":
            guard current == "{" else { throw LineError(column: start, "invalid escape: write \\u{hex}") }
            index += 1
            var hex = ""
            while let digit = current, digit != "}" {
                hex.append(digit)
                index += 1
                if hex.count > 8 { break }
            }
            guard current == "}", let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                throw LineError(column: start, "invalid escape \\u{\(hex)}: expected 1 to 8 hex digits of a Unicode scalar")
            }
            index += 1
            return Character(scalar)
        default:
            throw LineError(column: start, "invalid escape '\\\(character)': use \\\", \\\\, \\n, \\t, \\r, \\0 or \\u{hex}")
        }
    }

    private mutating func list(depth: Int) throws(LineError) -> ShellValue {
        let start = column
        guard depth <= Self.maximumDepth else {
            throw LineError(column: start, "lists nest deeper than \(Self.maximumDepth) levels")
        }
        index += 1
        var items: [Located<ShellValue>] = []
        skipSpaces()
        if current == "]" {
            index += 1
            return .list(items)
        }
        while true {
            skipSpaces()
            let itemColumn = column
            guard current != nil else { throw LineError(column: start, "unterminated list: add a closing ']'") }
            items.append(Located(try parseValue(depth: depth, inList: true), column: itemColumn))
            skipSpaces()
            switch current {
            case ",": index += 1
            case "]":
                index += 1
                return .list(items)
            case nil: throw LineError(column: start, "unterminated list: add a closing ']'")
            case let other?: throw LineError(column: column, "expected ',' or ']' in the list, got '\(other)'")
            }
        }
    }

    /// A `{…}` object up to its matching brace (strings may hold braces).
    private mutating func jsonObject() throws(LineError) -> String {
        let start = column
        var depth = 0
        var inString = false
        var text = ""
        while let character = current {
            text.append(character)
            index += 1
            if inString {
                if character == "\\", let next = current {
                    text.append(next)
                    index += 1
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0 { return text }
            default: break
            }
        }
        throw LineError(column: start, "unterminated JSON object: add a closing '}'")
    }
}

extension String {
    /// The string, cut to 40 characters with its length when it is long: user
    /// text echoed in an error must not flood the screen.
    package var clipped: String {
        count > 60 ? "\(prefix(40))… (\(count) characters)" : self
    }

    package func trimmingTrailingWhitespace() -> String {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}

extension StringProtocol {
    /// The text on one line: a message that quotes it stays one line.
    package var oneLine: String {
        String(self).replacingOccurrences(of: "\n", with: "\\n")
    }
}

extension Character {
    /// `isWhitespace`, answered without Unicode tables for ASCII.
    package var isSpace: Bool {
        if let ascii = asciiValue { return ascii == 0x20 || (0x09...0x0D).contains(ascii) }
        return isWhitespace
    }
}
