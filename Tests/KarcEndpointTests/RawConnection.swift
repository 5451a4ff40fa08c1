import Foundation
import Testing

/// What arrives on an endpoint's socket that is not gRPC.
enum Garbage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case randomBytes
    case http1Request
    case truncatedFrame

    var bytes: [UInt8] {
        switch self {
        case .randomBytes:
            var generator = SystemRandomNumberGenerator()
            return (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        case .http1Request:
            return Array("GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: curl/8\r\n\r\n".utf8)
        case .truncatedFrame:
            // The HTTP/2 preface, then a HEADERS frame header that promises 4 KiB and sends 3 bytes.
            return Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0x00, 0x10, 0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x01, 0x82, 0x86, 0x84]
        }
    }

    var testDescription: String { rawValue }
}

/// A plain connection to a Unix socket, to send what a test likes.
final class RawConnection: Sendable {
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un.at(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    func shutDownWriting() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads until the other end closes; false if it is still open after
    /// `bound`. On a thread of its own: a blocking read on the cooperative
    /// pool (two threads here) would starve the endpoint it waits for.
    func readsToEnd(within bound: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.blockingReadToEnd(within: bound)) }.start()
        }
    }

    private func blockingReadToEnd(within bound: Duration) -> Bool {
        var timeout = timeval(tv_sec: Int(bound.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    func close() {
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    deinit { Glibc.close(fd) }
}

/// A socket file with nobody listening: what a killed app leaves.
enum UnixSocketFile {
    static func make(at path: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un.at(path)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
    }
}

extension sockaddr_un {
    static func at(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        return address
    }
}
