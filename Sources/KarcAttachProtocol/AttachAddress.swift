import Foundation

/// Where an endpoint listens and a shell connects: a Unix domain socket
/// (the default, only its user can reach it) or TCP.
package enum AttachAddress: Sendable, Equatable, CustomStringConvertible {
    case unix(path: String)
    case tcp(host: String, port: Int)

    /// `unix:/path`, a path (`./app.sock`, `/run/…/shop.sock`), `HOST:PORT`,
    /// `[::1]:PORT`, or a name: the endpoint of that name in ``runtimeDirectory(environment:)``.
    package static func parse(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(AttachError)
        -> AttachAddress
    {
        if text.hasPrefix("unix:") { return .unix(path: String(text.dropFirst(5))) }
        if text.contains("/") || text.hasSuffix(".sock") { return .unix(path: text) }
        if let colon = text.lastIndex(of: ":") {
            var host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port), !host.isEmpty else {
                throw AttachError("'\(text)' is not an address: write HOST:PORT (127.0.0.1:7070), a socket path, unix:PATH, or an endpoint's name")
            }
            return .tcp(host: host, port: port)
        }
        guard !text.isEmpty, !text.hasPrefix(".") else {
            throw AttachError("'\(text)' is not an address: write HOST:PORT, a socket path, unix:PATH, or an endpoint's name")
        }
        return .unix(path: socketPath(named: text, environment: environment))
    }

    package var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    /// Whether only this machine can reach it (a socket, or a loopback address).
    package var isLocal: Bool {
        switch self {
        case .unix: true
        case .tcp(let host, _): host == "localhost" || host == "::1" || host.hasPrefix("127.")
        }
    }

    /// `$XDG_RUNTIME_DIR/karc`, else `/tmp/karc-UID`: where endpoints put
    /// their sockets and tokens (mode 0700).
    package static func runtimeDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return "\(runtime)/karc" }
        return "/tmp/karc-\(getuid())"
    }

    /// The socket of the endpoint `name`: `RUNTIME/NAME.sock`.
    package static func socketPath(named name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        "\(runtimeDirectory(environment: environment))/\(fileName(name)).sock"
    }

    /// The token file beside a socket (`shop.sock` → `shop.token`), or of a TCP endpoint's name.
    package static func tokenPath(for address: AttachAddress, name: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        switch address {
        case .unix(let path):
            return (path.hasSuffix(".sock") ? String(path.dropLast(5)) : path) + ".token"
        case .tcp(_, let port):
            return "\(runtimeDirectory(environment: environment))/\(fileName(name ?? "tcp-\(port)")).token"
        }
    }

    /// A name as a file name: no separators, no leading dot.
    package static func fileName(_ name: String) -> String {
        var file = String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        if file.isEmpty || file.hasPrefix(".") { file = "_" + file }
        return file
    }

    /// The endpoints listening in the runtime directory (their sockets), for
    /// `karc attach` with no address: a socket nothing accepts on (left by an
    /// app that was killed) is not one.
    package static func discover(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let directory = runtimeDirectory(environment: environment)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasSuffix(".sock") }.sorted().map { "\(directory)/\($0)" }.filter(SocketProbe.isListening)
    }

    /// Makes `directory` (and its parents) and sets it to 0700; refuses one
    /// that another user owns or others can enter.
    package static func prepareDirectory(_ directory: String) throws(AttachError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw AttachError("cannot make \(directory): \(error.localizedDescription)")
        }
        var status = stat()
        guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw AttachError("\(directory) is not a directory")
        }
        guard status.st_uid == getuid() else {
            throw AttachError("\(directory) belongs to another user: refusing to put a socket there")
        }
        guard chmod(directory, 0o700) == 0 else {
            throw AttachError("cannot make \(directory) private (0700): \(String(cString: strerror(errno)))")
        }
    }
}
