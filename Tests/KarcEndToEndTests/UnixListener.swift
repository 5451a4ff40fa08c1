import Foundation

/// A listening Unix socket that never speaks: another endpoint, as discovery
/// sees it, or something in the app's place that a shell's connection hangs on.
struct UnixListener {
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    /// The next connection, once one comes (the suite's time limit bounds the
    /// wait), held open and never answered; close it with `Glibc.close`.
    func nextConnection() async -> Int32 {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        while true {
            let connection = accept(fd, nil, nil)
            if connection >= 0 { return connection }
            // Polled, as a pane is: accept has no async form here.
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    func close() {
        _ = Glibc.close(fd)
    }
}
