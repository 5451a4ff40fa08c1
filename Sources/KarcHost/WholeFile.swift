import Foundation
import KarcHistory

/// Writes a file whole or not at all: into a temporary file beside it, then
/// renamed over it, so a reader (or a crash) never sees half of it and a
/// failure leaves what was there. Errors say the system's reason.
package enum WholeFile {
    /// Writes `text` to `path`, readable by others (0644) unless it is a
    /// snapshot file, which holds the app's state and is kept to its owner (0600).
    /// Not `replacing`: only if nothing is at `path` when the file lands
    /// (a hard link, which fails where something is), else nothing is written.
    package static func write(_ text: String, to path: String, replacing: Bool = true) throws(HostError) {
        guard try land(text, at: path, replacing: replacing) else {
            throw HostError("cannot write \(path): a file appeared there meanwhile, and it is kept")
        }
    }

    /// Writes `text` to `path` only if nothing is there when the file
    /// lands; false (nothing written) when something is: a file another
    /// process put there meanwhile is kept.
    package static func writeNew(_ text: String, to path: String) throws(HostError) -> Bool {
        try land(text, at: path, replacing: false)
    }

    /// Writes `text` beside `path` and puts it there; false when not
    /// `replacing` and something is at `path` already.
    private static func land(_ text: String, at path: String, replacing: Bool) throws(HostError) -> Bool {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/." + url.lastPathComponent + ".karc-XXXXXX").utf8CString)
        // Never nil: a C string's buffer holds at least its terminating NUL.
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(path) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = false
        defer { if !written { unlink(temporary) } }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = failure(path)
                close(fd)
                throw error
            }
            offset += count
        }
        // mkstemp makes it 0600; a script or a diagram is for others to read too.
        if !SnapshotFile.isSnapshot(text) { fchmod(fd, 0o644) }
        guard close(fd) == 0 else { throw failure(path) }
        if !replacing {
            if link(temporary, path) == 0 { return true }  // the deferred unlink drops the temporary name
            if errno == EEXIST { return false }
            // A file system without hard links (EPERM, ENOTSUP): checked, then renamed.
            guard access(path, F_OK) != 0 else { return false }
        }
        guard rename(temporary, path) == 0 else { throw failure(path) }
        written = true
        return true
    }

    private static func failure(_ path: String) -> HostError {
        HostError("cannot write \(path): \(String(cString: strerror(errno)))")
    }
}
