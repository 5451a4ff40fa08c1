/// What the first bytes of a file given as a script say it is not: a
/// binary (its bytes would be read as garbage commands, an error each), or
/// an app's token file (whose secret an error would print back).
package enum ScriptHead {
    /// Why the file whose first bytes are `head` is no script, or nil.
    package static func problem(_ head: [UInt8], path: String) -> String? {
        if let nul = head.firstIndex(of: 0) {
            let line = head[..<nul].count { $0 == UInt8(ascii: "\n") } + 1
            return "\(path) is not a script: it holds binary data (a NUL byte on line \(line)); a karc script is text, a command a line"
        }
        var text = head[...]
        while let last = text.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { text = text.dropLast() }
        let isHex = text.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        if path.hasSuffix(".token") || (text.count == 64 && isHex) {
            return "\(path) looks like an app's token file, not a script (give it as --token-file \(path)); nothing of it was run"
        }
        return nil
    }
}
