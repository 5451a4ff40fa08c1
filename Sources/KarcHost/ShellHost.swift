import Foundation
import KarcOutput

/// The machine a session's files and terminal are on. A session in this
/// process uses ``LocalHost``; a session an attached shell drives in an
/// app (`karc attach`) reads and writes the files of the machine the user
/// types on, through the connection, and pages on that terminal.
package protocol ShellHost: Sendable {
    /// The lines of the script at `path` (`:source`), read as they arrive.
    func openScript(_ path: String) async throws(HostError) -> any LineSource
    /// Writes `text` to `path`, replacing it whole (`:save`, `:export-test`).
    func write(_ text: String, to path: String) async throws(HostError)
    /// Writes `text` to `path` only if nothing is there when it lands
    /// (`:save` of a file that was not there): a file that appears
    /// meanwhile is kept, and the write fails. By default a plain write.
    func writeNew(_ text: String, to path: String) async throws(HostError)
    /// The text of the file at `path`, nil when there is none, before a
    /// write replaces it (`:save` checks what it would replace). By default
    /// read as a script is.
    func existingText(at path: String) async throws(HostError) -> String?
    /// Opens `path` to append each line the session runs to it (`--record`),
    /// made with mode 0600 when missing; returns what appends a text.
    func recorder(appendingTo path: String) async throws(HostError) -> @Sendable (String) -> Void
    /// Shows `bytes` (`:state` at a prompt): through the pager when they need
    /// more rows than the terminal has, else written as they are.
    func page(_ bytes: [UInt8]) async
}

/// Why a file could not be read or written: the whole message, naming the file.
package struct HostError: Error, Sendable, Equatable {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    /// The script asked for does not exist (``LocalHost/checkScript(_:)``'s
    /// words, which an attached shell's machine sends back as they are).
    package var isMissingFile: Bool { message.hasPrefix(Self.missingScript) }

    package static let missingScript = "no such script: "
}

/// Lines of a script as they arrive (a file, a pipe, standard input, or an attached shell's).
package protocol LineSource: Sendable {
    /// Whether ``next()`` would return without waiting.
    var hasLineReady: Bool { get }
    /// The next line, without its line ending; nil at the end.
    func next() async -> String?
}

/// This process's files; `page` is given by the shell that has a terminal.
package struct LocalHost: ShellHost {
    private let pager: @Sendable ([UInt8]) async -> Void

    /// `pager`: how `:state` shows a long text at a prompt (the shell's `$PAGER`).
    package init(pager: @escaping @Sendable ([UInt8]) async -> Void = { OutputSink.writeAll($0, to: STDOUT_FILENO) }) {
        self.pager = pager
    }

    package func openScript(_ path: String) async throws(HostError) -> any LineSource {
        try LocalHost.openScript(path)
    }

    /// A script opened to be read as a stream: a file, a pipe (`<(…)`),
    /// `/dev/stdin`. Read as its lines arrive, so nothing needs to be a
    /// regular file or end before the first line runs.
    package static func openScript(_ path: String) throws(HostError) -> StandardInputLines {
        try checkScript(path)
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HostError("cannot read \(path): \(String(cString: strerror(errno)))") }
        return StandardInputLines(fd: fd, closing: true)
    }

    /// That `path` names something a script can be read from, or why not.
    package static func checkScript(_ path: String) throws(HostError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw HostError(errno == ENOENT ? HostError.missingScript + path : "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if status.st_mode & S_IFMT == S_IFDIR { throw HostError("\(path) is a directory, not a script") }
        // A pipe is read as it comes: only a file is looked into before its first line runs.
        guard status.st_mode & S_IFMT == S_IFREG else { return }
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HostError("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 8_192)
        let count = head.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
        if let problem = ScriptHead.problem(Array(head.prefix(max(0, count))), path: path) { throw HostError(problem) }
    }

    package func write(_ text: String, to path: String) async throws(HostError) {
        try WholeFile.write(text, to: path)
    }

    package func writeNew(_ text: String, to path: String) async throws(HostError) {
        try WholeFile.write(text, to: path, replacing: false)
    }

    package func existingText(at path: String) async throws(HostError) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw HostError("cannot tell what \(path) holds: \(String(cString: strerror(errno)))")
        }
        // A directory or a device is no file to put a script in (and renaming over `/dev/null` would replace it).
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw HostError("cannot write \(path): it is \(status.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file")")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HostError("cannot tell what \(path) holds: it cannot be read")
        }
        return String(decoding: data, as: UTF8.self)
    }

    package func recorder(appendingTo path: String) async throws(HostError) -> @Sendable (String) -> Void {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HostError("cannot record to \(path): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        return { handle.write(Data($0.utf8)) }
    }

    package func page(_ bytes: [UInt8]) async {
        await pager(bytes)
    }
}

extension ShellHost {
    /// A plain write: a host that cannot write only new files replaces what appeared since it looked.
    package func writeNew(_ text: String, to path: String) async throws(HostError) {
        try await write(text, to: path)
    }

    /// The file read as a script is; nil when there is none.
    package func existingText(at path: String) async throws(HostError) -> String? {
        do {
            return try await read(path)
        } catch  where error.message == "cannot read \(path): no such file" {
            return nil
        }
    }

    /// The whole text of the file at `path` (a snapshot file), read as a script is.
    package func read(_ path: String) async throws(HostError) -> String {
        let lines: any LineSource
        do {
            lines = try await openScript(path)
        } catch  where error.isMissingFile {
            throw HostError("cannot read \(path): no such file")
        }
        var text = ""
        while let line = await lines.next() { text += line + "\n" }
        return text
    }
}
