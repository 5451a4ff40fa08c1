/// How many terminal columns text takes: 2 for wide characters (CJK,
/// emoji), 0 for a lone combining mark, else 1. What a caret under a
/// column of the line must count, since a character is not a column.
package enum DisplayWidth {
    package static func of(_ text: some StringProtocol) -> Int {
        // Printable ASCII (names, help, paths: most of what is measured) is a
        // column a byte; walking characters breaks graphemes, which made
        // padding `:help`'s table most of its cost.
        var columns = 0
        for byte in text.utf8 {
            guard byte >= 0x20, byte < 0x7F else { return text.reduce(0) { $0 + of($1) } }
            columns += 1
        }
        return columns
    }

    /// `text` followed by spaces up to `columns` columns (as it is when it
    /// takes as many or more): what lines up a column of names.
    package static func padded(_ text: String, to columns: Int) -> String {
        let width = of(text)
        return width >= columns ? text : text + String(repeating: " ", count: columns - width)
    }

    /// `text` in at most `columns` columns: as it is when it fits, else
    /// its start and `…` (a wide character that would pass the edge goes too).
    package static func cut(_ text: some StringProtocol, to columns: Int) -> String {
        guard of(text) > columns else { return String(text) }
        guard columns > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            kept.append(character)
            used += width
        }
        return kept + "…"
    }

    package static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii != 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // An emoji shown as one (its presentation, or a text one followed by VS16) takes two columns.
        if first.properties.isEmojiPresentation || (first.properties.isEmoji && scalars.contains("\u{FE0F}")) { return 2 }
        if isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, in blocks).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
