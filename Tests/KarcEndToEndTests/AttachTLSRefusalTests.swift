import Foundation
import TestSupport
import Testing

/// A shell that does not trust the endpoint's certificate says so, naming
/// the --tls-ca file it trusted, and exits 1: not a connection lost.
@Suite(.timeLimit(.minutes(1)))
struct AttachTLSRefusalTests {
    /// A self-signed certificate and its key for `subject`, naming `altNames`.
    func certificate(_ name: String, subject: String, altNames: String, in directory: ScratchDirectory) async throws -> (cert: String, key: String) {
        let (cert, key) = (directory.file("\(name).pem"), directory.file("\(name)-key.pem"))
        let made = try await ChildProcess.run([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
            "-subj", subject, "-addext", "subjectAltName=\(altNames)",
        ])
        #expect(made.status == 0)
        return (cert, key)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs openssl to make a certificate"))
    func aCertificateNoCAInTheFileSignedIsRefusedAsThat() async throws {
        let certificates = ScratchDirectory("karc-tls-refused")
        let endpoint = try await certificate("endpoint", subject: "/CN=localhost", altNames: "IP:127.0.0.1,DNS:localhost", in: certificates)
        let other = try await certificate("other", subject: "/CN=other", altNames: "DNS:other", in: certificates)
        let served = try await ServedDemo(["--listen", "127.0.0.1:0", "--tls-cert", endpoint.cert, "--tls-key", endpoint.key])
        let line = try #require(served.process.stdout.split(separator: "\n").first { $0.contains("listens on 127.0.0.1:") })
        let address = String(try #require(line.components(separatedBy: "listens on ").last?.split(separator: " ").first))

        let refused = try await served.attach([address, "--token-file", served.tokenFile, "--tls-ca", other.cert, "-e", "counter.increment"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.hasPrefix(
                "karc attach: error: refused \(address): the endpoint's certificate (subject CN=localhost, issued by CN=localhost)"
                    + " is not signed by a certificate in \(other.cert) (--tls-ca: CN=other)"),
            "\(refused.stderr)")
        #expect(!refused.stderr.contains("HTTP/2"), "not the transport's words")

        #expect(await served.stop() == 0)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs openssl to make a certificate"))
    func aCertificateThatDoesNotNameTheAddressIsRefusedAsThat() async throws {
        let certificates = ScratchDirectory("karc-tls-unnamed")
        let endpoint = try await certificate("endpoint", subject: "/CN=elsewhere", altNames: "DNS:elsewhere", in: certificates)
        let served = try await ServedDemo(["--listen", "127.0.0.1:0", "--tls-cert", endpoint.cert, "--tls-key", endpoint.key])
        let line = try #require(served.process.stdout.split(separator: "\n").first { $0.contains("listens on 127.0.0.1:") })
        let address = String(try #require(line.components(separatedBy: "listens on ").last?.split(separator: " ").first))
        let refused = try await served.attach([address, "--token-file", served.tokenFile, "--tls-ca", endpoint.cert, "-e", "counter.increment"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the endpoint's certificate does not name 127.0.0.1"), "\(refused.stderr)")
        #expect(await served.stop() == 0)
    }

    @Test func aTLSCAFileThatIsMissingOrNoCertificateIsSaidBeforeConnecting() async throws {
        let scratch = ScratchDirectory("karc-tls-ca")
        let token = scratch.file("token")
        try (String(repeating: "7", count: 64) + "\n").write(toFile: token, atomically: true, encoding: .utf8)
        let missing = try await KarcRun.run(["attach", "127.0.0.1:9", "--token-file", token, "--tls-ca", scratch.file("none.pem"), "-e", "x"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "karc attach: error: cannot read --tls-ca \(scratch.file("none.pem")): no such file\n")
        let notPEM = try await KarcRun.run(["attach", "127.0.0.1:9", "--token-file", token, "--tls-ca", token, "-e", "x"])
        #expect(notPEM.status == 1)
        #expect(notPEM.stderr == "karc attach: error: --tls-ca \(token) holds no PEM certificate (-----BEGIN CERTIFICATE-----)\n")
    }
}
