import KarcLanguage

/// What this session wrote to files (`:save`, `:snapshot save`,
/// `:export-test`, `:export-diagram`), so that a file is replaced without
/// `--force` only when it holds what the session wrote there (by any of
/// them), or nothing: anything else may be a user's work.
///
/// A file is known by what it holds, not by its path or inode: `./a.karc`
/// and `a.karc` are one file, a file an editor saved again (a new inode,
/// or the same one) holds the user's lines, and a file another session
/// wrote is not this one's to replace. What it holds is kept as its length
/// and a 64-bit hash (a process's `Hasher`, enough for the texts of one
/// session), not as the text: a saved session may be megabytes.
package struct WrittenFiles {
    private struct Fingerprint: Hashable {
        let bytes: Int
        let hash: Int

        init(_ text: String) {
            bytes = text.utf8.count
            var hasher = Hasher()
            hasher.combine(text)
            hash = hasher.finalize()
        }
    }

    private var written: Set<Fingerprint> = []

    package init() {}

    /// The session wrote `text` to a file.
    package mutating func wrote(_ text: String) {
        written.insert(Fingerprint(text))
    }

    /// Whether a file holding `text` holds nothing but what this session wrote.
    package func holdsOnlyOurs(_ text: String) -> Bool {
        text.isEmpty || written.contains(Fingerprint(text))
    }
}
