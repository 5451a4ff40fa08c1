import Foundation

/// The secret every attach call carries: 256 random bits, hex, in a file
/// only its owner can read (0600), next to the endpoint's socket.
package enum AttachToken {
    /// A new token.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    /// Writes `token` to `path` with mode 0600, replacing what was there.
    package static func write(_ token: String, to path: String) throws(AttachError) {
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw AttachError("cannot write the token file \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array((token + "\n").utf8)
        guard Foundation.write(fd, bytes, bytes.count) == bytes.count else {
            throw AttachError("cannot write the token file \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The token in `path`: its first 4 KiB (a token is 64 characters; a
    /// larger file is not one, and is not read whole), as bytes arrive (a
    /// pipe works too).
    package static func read(from path: String) throws(AttachError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "no such file" : "not readable (it is the app's user's, mode 0600)"
            throw AttachError("cannot read the token file \(path): \(reason); point to it with --token-file")
        }
        defer { close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw AttachError("the token file \(path) is a directory: point --token-file to the file the app wrote (NAME.token)")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 4096 {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, 4096 - bytes.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        let token = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw AttachError("the token file \(path) is empty: the app writes its token there as it starts serving (is it the app's file?)")
        }
        return token
    }

    /// Compares in time that does not depend on where they differ.
    package static func matches(_ given: String, _ expected: String) -> Bool {
        let (a, b) = (Array(given.utf8), Array(expected.utf8))
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}

/// An attach failure, as the user reads it.
package struct AttachError: Error, Sendable, Equatable, CustomStringConvertible {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
