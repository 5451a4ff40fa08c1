import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import KarcAttachProtocol

/// How `karc attach` reaches an endpoint: its address, resolved, and its token.
package struct AttachConnection: Sendable {
    package let address: AttachAddress
    package let token: String
    package let tlsCA: String?

    /// `address` (nil: the one endpoint in the runtime directory), with the
    /// token from `tokenFile` (nil: beside the socket).
    package static func resolve(
        _ address: String?, tokenFile: String?, tlsCA: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(AttachError) -> AttachConnection {
        let resolved: AttachAddress
        if let address {
            resolved = try AttachAddress.parse(address, environment: environment)
        } else {
            let found = AttachAddress.discover(environment: environment).filter { SocketFile.isSocket($0) }
            let directory = AttachAddress.runtimeDirectory(environment: environment)
            switch found.count {
            case 0:
                throw AttachError(
                    "no endpoint listens under \(directory): start one (karc serve, or a ClusterEndpoint in your app), or name its address")
            case 1:
                resolved = .unix(path: found[0])
            default:
                let names = found.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
                throw AttachError("\(found.count) endpoints listen under \(directory): name one (karc attach NAME): \(names.joined(separator: ", "))")
            }
        }
        if case .unix(let path) = resolved, !SocketFile.isSocket(path) {
            throw AttachError(
                "no endpoint at unix:\(path): \(FileManager.default.fileExists(atPath: path) ? "not a socket" : "no such socket") (is the app running?)"
            )
        }
        if case .unix(let path) = resolved, !SocketProbe.isListening(path) {
            throw AttachError("nothing listens at unix:\(path): the app that made it stopped (is it running?)")
        }
        if case .tcp = resolved, tokenFile == nil {
            throw AttachError("attaching over TCP needs the endpoint's token: --token-file FILE (the app wrote it; karc serve prints where)")
        }
        if let tlsCA { try AttachTLSRefusal.check(tlsCA) }
        let token = try AttachToken.read(from: tokenFile ?? AttachAddress.tokenPath(for: resolved, name: nil, environment: environment))
        return AttachConnection(address: resolved, token: token, tlsCA: tlsCA)
    }

    /// The gRPC transport to the endpoint.
    func transport() throws -> HTTP2ClientTransport.Posix {
        let target: any ResolvableTarget =
            switch address {
            case .unix(let path): .unixDomainSocket(path: path)
            case .tcp(let host, let port):
                host.contains(":") ? .ipv6(address: host, port: port) : .ipv4(address: host == "localhost" ? "127.0.0.1" : host, port: port)
            }
        let security: HTTP2ClientTransport.Posix.TransportSecurity =
            if let tlsCA {
                .tls { $0.trustRoots = .certificates([.file(path: tlsCA, format: .pem)]) }
            } else {
                .plaintext
            }
        return try HTTP2ClientTransport.Posix(target: target, transportSecurity: security)
    }
}

/// Whether a path is a Unix socket.
enum SocketFile {
    static func isSocket(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }
}
