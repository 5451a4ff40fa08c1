import Foundation
import KarcSession

/// Where a failure's script (and test) goes: a name of its own, what failed
/// and a short hash of the shrunk commands
/// (`crash-sigill-vault-c-5d1c2a9e.karc`), so a later exploration never
/// replaces an earlier one's script. A file already there is left as it
/// is unless it holds the same text; otherwise the next free name
/// (`…-2.karc`) is taken.
package enum ExploreFailureFile {
    /// The name, without its extension, of the file that shows `failure`
    /// ending `commands`: the failure's kind and what it names (the
    /// invariant, or the command that failed), then the hash.
    package static func baseName(_ failure: ExploreFailure, commands: [String]) -> String {
        var words = failure.slug
        switch failure.kind {
        case .invariant: break
        case .timeout(let command) where command.contains("."): break
        default: if let last = commands.last { words += "-" + ExploreFailure.slug(String(last.prefix { $0 != " " })) }
        }
        return String(words.prefix(80)) + "-" + hash(commands)
    }

    /// Eight hex digits of the commands' FNV-1a hash: the same in every
    /// process and build (Swift's `Hasher` is seeded per process).
    package static func hash(_ commands: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in commands.joined(separator: "\n").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash >> 32, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// A file to write: its extension, and its text for the path it gets
    /// without the extension (a script's header names its own path).
    package typealias Text = (ext: String, text: (String) -> String)

    /// Writes each of `files` as `directory/BASE.EXT`, or `BASE-2.EXT`,
    /// `BASE-3.EXT`… when a file of that name holds something else: the
    /// paths written, in order. Nothing already there is replaced, even by
    /// another exploration writing at the same moment (each file is linked
    /// into place, which fails when the name is taken).
    package static func write(_ files: [Text], base: String, in directory: String) throws(HostError) -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw HostError("cannot write \(directory): \(error.localizedDescription)")
        }
        var number = 1
        while true {
            let name = number == 1 ? base : "\(base)-\(number)"
            let stem = (directory as NSString).appendingPathComponent(name)
            let paths = files.map { stem + "." + $0.ext }
            let texts = files.map { Data($0.text(stem).utf8) }
            defer { number += 1 }
            // A name that holds another failure already is passed over before anything is written under it.
            let free = zip(paths, texts).allSatisfy { path, text in FileManager.default.contents(atPath: path).map { $0 == text } ?? true }
            guard free else { continue }
            var placed = true
            for (path, text) in zip(paths, texts) where placed { placed = try place(text, at: path) }
            if placed { return paths }
        }
    }

    /// Puts `text` at `path` unless another text is there: whether it is there now.
    private static func place(_ text: Data, at path: String) throws(HostError) -> Bool {
        if let existing = FileManager.default.contents(atPath: path) { return existing == text }
        // Whole or not at all, and a name taken meanwhile stays taken.
        if try WholeFile.writeNew(String(decoding: text, as: UTF8.self), to: path) { return true }
        return FileManager.default.contents(atPath: path) == text
    }
}
