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
}
