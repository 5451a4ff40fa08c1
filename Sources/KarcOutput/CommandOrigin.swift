/// The command a late reply belongs to: its name, the line as typed, its
/// number in `:history` and where it was read.
package struct CommandOrigin: Sendable {
    /// `target.command`.
    package let name: String
    /// The command as typed, arguments and all.
    package let text: String
    /// Its number in `:history` (`seq` in `--json`).
    package let seq: Int
    package let script: String?
    package let line: Int?

    /// `#3 slow.run n=1`: how the readable output names it (the first line of a long one).
    package var described: String {
        let first = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        return "#\(seq) " + (first.count < text.count ? first + " …" : first)
    }

    package init(name: String, text: String, seq: Int, script: String?, line: Int?) {
        self.name = name
        self.text = text
        self.seq = seq
        self.script = script
        self.line = line
    }
}
