import Foundation
import KarcSynchronization
import NIOCore
import NIOPosix
import NIOSSL
import SwiftASN1
import X509

/// Who the endpoint says it is, for the words of a refused certificate:
/// the subject and issuer of the certificate it presents, read by a
/// handshake of its own that trusts nothing and sends nothing (the
/// transport that refused it keeps no copy), and the subjects of the
/// certificates a `--tls-ca` file holds.
enum AttachPeerCertificate {
    /// `subject CN=…, issued by CN=…` of the certificate `host:port` presents; nil when none came within `timeout`.
    static func describe(host: String, port: Int, timeout: TimeAmount = .seconds(2)) async -> String? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .noHostnameVerification
        configuration.applicationProtocols = ["h2"]
        guard let context = try? NIOSSLContext(configuration: configuration) else { return nil }
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let presented = loop.makePromise(of: NIOSSLCertificate?.self)
        // The first of the certificate, a timeout and a failed connection settles it; the rest find it settled.
        let settled = KarcMutex(false)
        let settle = { @Sendable (certificate: NIOSSLCertificate?) in
            guard
                settled.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            presented.succeed(certificate)
        }
        let bootstrap = ClientBootstrap(group: loop).connectTimeout(timeout).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                // Refused here, after it is read: this handshake is only to see the certificate.
                let handler = try NIOSSLClientHandler(
                    context: context, serverHostname: nil
                ) { (chain: [NIOSSLCertificate], verified: EventLoopPromise<NIOSSLVerificationResult>) in
                    settle(chain.first)
                    verified.succeed(NIOSSLVerificationResult.failed)
                }
                try channel.pipeline.syncOperations.addHandler(handler)
            }
        }
        let timer = loop.scheduleTask(in: timeout) { settle(nil) }
        let channel: (any Channel)?
        do {
            channel = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            channel = nil
            settle(nil)
        }
        let certificate = try? await presented.futureResult.get()
        timer.cancel()
        try? await channel?.close()
        guard let certificate, let der = try? certificate.toDERBytes(), let parsed = try? Certificate(derEncoded: der) else { return nil }
        return "subject \(parsed.subject), issued by \(parsed.issuer)"
    }

    /// The subjects of the PEM certificates in `file`, in order (none when it cannot be read).
    static func subjects(inPEMFile file: String) -> [String] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
        let documents = (try? PEMDocument.parseMultiple(pemString: text)) ?? []
        return documents.filter { $0.discriminator == "CERTIFICATE" }.compactMap { document in
            (try? Certificate(derEncoded: document.derBytes)).map { "\($0.subject)" }
        }
    }
}
