import Testing

@testable import KarcOutput

/// What a terminal is given of text a user or an app gave: every control
/// character but a newline and a tab, escaped as a Swift string escapes it.
@Suite(.timeLimit(.minutes(1)))
struct TerminalSafeTests {
    @Test func controlCharactersAreEscapedAndTheRestIsKept() {
        #expect(TerminalSafe.text("\u{1B}[2Jcounter") == "\\u{1B}[2Jcounter")
        #expect(TerminalSafe.text("bell\u{7} nul\u{0} del\u{7F}") == "bell\\u{7} nul\\u{0} del\\u{7F}")
        // A lone C1 CSI starts a sequence as ESC [ does.
        #expect(TerminalSafe.text("a\u{9B}31mb") == "a\\u{9B}31mb")
        #expect(TerminalSafe.text("two\nlines\tand a tab") == "two\nlines\tand a tab")
        #expect(TerminalSafe.text("café — 漢字 👍") == "café — 漢字 👍")
    }
}
