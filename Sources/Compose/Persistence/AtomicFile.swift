import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that a reader (or the next run, after a crash) sees
/// either the old content or the new one, never a mix: write a temporary
/// file beside it, fsync it, rename it over the target, fsync the directory.
enum AtomicFile {
    /// Thrown by a write told to stop part-way (`crashAfter`), standing in
    /// for a process killed mid-write: the temporary file stays behind,
    /// half-written, and the target is not touched.
    struct SimulatedCrash: Error {}

    static func write(_ data: Data, to path: String, crashAfter: Int? = nil) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw PersistenceError.unwritable(path: path, reason: "cannot create directory \(directory)")
        }
        let temporary = "\(directory)/\(temporaryPrefix(for: name))\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path, "cannot create \(temporary)") }
        var closed = false
        defer { if !closed { close(fd) } }
        do {
            try writeAll(data, to: fd, limit: crashAfter, path: path)
            if crashAfter != nil { throw SimulatedCrash() }
            guard fsync(fd) == 0 else { throw failure(path, "fsync") }
            closed = true
            guard close(fd) == 0 else { throw failure(path, "close") }
            guard rename(temporary, path) == 0 else { throw failure(path, "rename") }
        } catch is SimulatedCrash {
            throw SimulatedCrash()
        } catch {
            unlink(temporary)
            throw error
        }
        syncDirectory(directory)
        removeAbandonedTemporaries(of: name, in: directory)
    }

    /// Temporary files are hidden and named after their target and writer: `.key.json.tmp-PID-RANDOM`.
    static func temporaryPrefix(for name: String) -> String {
        ".\(name).tmp-"
    }

    private static func writeAll(_ data: Data, to fd: Int32, limit: Int?, path: String) throws {
        let count = min(data.count, limit ?? data.count)
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < count {
                // `baseAddress` is non-nil here: `count > 0` means the buffer is not empty.
                let written = Glibc.write(fd, buffer.baseAddress! + offset, count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure(path, "write")
                }
                offset += written
            }
        }
    }

    /// Makes the rename itself durable.
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Deletes temporaries left by writers that died mid-write (their process
    /// is gone); a live writer's temporary is left alone.
    private static func removeAbandonedTemporaries(of name: String, in directory: String) {
        let prefix = temporaryPrefix(for: name)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let pidText = entry.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(pidText), pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                unlink("\(directory)/\(entry)")
            }
        }
    }

    static func failure(_ path: String, _ step: String) -> PersistenceError {
        .unwritable(path: path, reason: "\(step): \(String(cString: strerror(errno)))")
    }
}
