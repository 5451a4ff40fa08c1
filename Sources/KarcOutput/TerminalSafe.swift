/// Text a user or an app gave (a name typed in a script, a line from the
/// inspector's page, an error's description) made safe to write to a
/// terminal: each control character but a newline and a tab is written as
/// a Swift escape (`\u{1B}`), as values in a dump are, so an escape
/// sequence in a script cannot retitle or rewrite the user's terminal, and
/// an invisible character (a NUL) is seen in the message that names it.
package enum TerminalSafe {
    /// `text` with its control characters escaped; `text` itself when it has none.
    package static func text(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }), text.unicodeScalars.contains(where: isEscaped) else {
            return text
        }
        var safe = ""
        safe.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                safe += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }

    /// C0 controls but a newline and a tab, DEL, and the C1 controls (a lone `CSI` starts a sequence too).
    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00..<0x20, 0x7F, 0x80..<0xA0: true
        default: false
        }
    }
}
