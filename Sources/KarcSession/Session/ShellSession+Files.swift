import KarcLanguage

extension ShellSession {
    /// Writes `text` to the file `file` names for `call`, unless a file is
    /// there that this session did not write and `force` is false: then
    /// nothing is written and the error says what is there and how to
    /// replace it (`replace`, the command with `--force`). False (the
    /// error printed) when nothing was written. Every meta command that
    /// writes a file the user names writes through here, so one rule keeps
    /// the user's files whichever command would replace them.
    func write(_ text: String, to file: Located<String>, force: Bool, replace: String, in call: MetaCall) async -> Bool {
        do {
            let existing = force ? nil : try await host.existingText(at: file.value)
            if let existing, !io.written.holdsOnlyOurs(existing) {
                _ = fail(
                    "not replacing \(file.value): it holds \(Self.describe(existing)) that this session did not write; nothing was written. "
                        + "\(replace) replaces it, or give another file", column: file.column, in: call)
                return false
            }
            if force || existing != nil {
                try await host.write(text, to: file.value)
            } else {
                try await host.writeNew(text, to: file.value)
            }
        } catch {
            _ = fail(error.message, column: file.column, in: call)
            return false
        }
        io.written.wrote(text)
        return true
    }

    /// `25 lines`, `1 line`, `a line of 812 bytes`.
    private static func describe(_ text: String) -> String {
        var lines = text.utf8.count { $0 == UInt8(ascii: "\n") }
        if text.utf8.last != UInt8(ascii: "\n") { lines += 1 }
        return lines == 1 ? "a line of \(text.utf8.count) bytes" : "\(lines) lines"
    }
}

extension MetaCompletions {
    /// The arguments of a command that writes a file through
    /// ``ShellSession/write(_:to:force:replace:in:)``: a path until one is
    /// given, and `flags` (`--force` first) when the word starts with `-`
    /// or a file is there already, each once.
    static func file(at position: Int, of words: [String], flags: [String] = ["--force"]) -> MetaCompletions {
        let word = words.last ?? ""
        let typed = words.prefix(position)
        let fileGiven = typed.contains { !$0.hasPrefix("-") }
        return word.hasPrefix("-") || fileGiven
            ? MetaCompletions(candidates: flags.filter { !typed.contains($0) })
            : MetaCompletions(candidates: Completer.paths(startingWith: word), suffix: "")
    }
}
