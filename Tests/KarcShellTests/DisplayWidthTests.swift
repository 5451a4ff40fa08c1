import Testing

@testable import KarcRendering
@testable import KarcSession
@testable import KarcShell

@Suite(.timeLimit(.minutes(1)))
struct DisplayWidthTests {
    @Test(arguments: [
        ("abc", 3), ("café", 4), ("e\u{301}", 1), ("日本語", 6), ("👍", 2), ("👍🏽", 2), ("❤️", 2), ("한글", 4), ("ｆｕｌｌ", 8),
    ])
    func columnsATerminalGivesText(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    /// Plain ASCII is counted a byte at a time; text with anything else in it
    /// (a control character, a mark, a wide letter) as characters, the same
    /// in a line, a slice of one, and one that starts plain.
    @Test(arguments: [
        ("  :help [TARGET]   ", 19), ("a\tb", 2), ("line\r\n", 4), ("\u{7F}x", 1), ("plain, then 日本", 16), ("ascii e\u{301}", 7),
        ("", 0),
    ])
    func plainTextAndTextWithMoreInItCountAlike(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
        #expect(DisplayWidth.of(text[...]) == columns)
        #expect(DisplayWidth.padded(text, to: columns + 2) == text + "  ")
    }
}
