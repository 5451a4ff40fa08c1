import Foundation
import GRPCCore
import KarcAttachProtocol

/// A TLS handshake this shell refused, said as what is wrong with the
/// endpoint's certificate rather than as the connection the transport saw
/// closed before HTTP/2 began.
enum AttachTLSRefusal {
    /// What the refusal means for the user who passed `--tls-ca tlsCA`, or
    /// nil when `error` is no refused certificate.
    static func message(for error: RPCError, address: AttachAddress, tlsCA: String) async -> String? {
        guard let cause = error.cause else { return nil }
        // The cause is NIOSSL's error; karc reaches NIOSSL only through the gRPC transport,
        // so the error is read by its text: BoringSSL's reason and NIOSSL's case name.
        let text = String(reflecting: cause)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            var presented = ""
            if case .tcp(let host, let port) = address, let peer = await AttachPeerCertificate.describe(host: host, port: port) {
                presented = " (\(peer))"
            }
            let trusted = AttachPeerCertificate.subjects(inPEMFile: tlsCA)
            let holds = trusted.isEmpty ? "" : ": " + trusted.joined(separator: "; ")
            return
                "refused \(address): the endpoint's certificate\(presented) is not signed by a certificate in \(tlsCA) (--tls-ca\(holds)), or is outside its dates of validity; pass the certificate the endpoint was started with (karc serve --tls-cert), or the CA that signed it"
        }
        if text.contains("failedToValidateHostname") {
            let host: String
            switch address {
            case .tcp(let name, _): host = name
            case .unix: host = "the endpoint's address"
            }
            return "refused \(address): the endpoint's certificate does not name \(host) (in its subjectAltName); attach by a name it has"
        }
        return nil
    }

    /// Why `tlsCA` cannot be the trust roots, before a connection tries it:
    /// the transport would say only that it could not load a certificate.
    static func check(_ tlsCA: String) throws(AttachError) {
        guard let contents = FileManager.default.contents(atPath: tlsCA) else {
            throw AttachError("cannot read --tls-ca \(tlsCA): \(FileManager.default.fileExists(atPath: tlsCA) ? "not readable" : "no such file")")
        }
        guard String(decoding: contents, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw AttachError("--tls-ca \(tlsCA) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
    }
}
