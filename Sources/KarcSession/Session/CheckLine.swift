/// The lines of a transcript that are `check`'s own, not the shell's: an
/// expected line (`#= …`) or a mask (`#mask …`). The shell runs neither
/// (to it both are comments) and does not echo them; `check`
/// (KarcScriptTools) reads them.
package enum CheckLine {
    package static let expectationPrefix = "#="
    package static let maskKeyword = "#mask"

    /// The output an expected line expects, without its prefix and the space after it.
    package static func expected(_ line: String) -> String? {
        guard line.hasPrefix(expectationPrefix) else { return nil }
        let rest = line.dropFirst(expectationPrefix.count)
        return String(rest.first == " " ? rest.dropFirst() : rest)
    }

    /// Whether the line is one of `check`'s own: an expected line or a mask.
    package static func isCheckLine(_ line: String) -> Bool {
        expected(line) != nil || line.hasPrefix(maskKeyword)
    }
}
