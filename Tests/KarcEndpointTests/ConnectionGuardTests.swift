import Foundation
import GRPCCore
import KarcEndpoint
import TestSupport
import Testing

/// Whatever connects to an endpoint cannot hold the app's file descriptors:
/// a connection that never opens a call is closed after the handshake
/// timeout, past the connection limit a new one is closed as it comes, and
/// a shell that comes after finds room.
@Suite(.timeLimit(.minutes(1))) struct ConnectionGuardTests {
    /// What a connection that is no shell sends before it goes quiet (and does not close).
    enum Quiet: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case nothing
        case aFewBytes
        case thePrefaceAlone

        var bytes: [UInt8] {
            switch self {
            case .nothing: []
            case .aFewBytes: Array("hello\n".utf8)
            case .thePrefaceAlone: Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
            }
        }

        var testDescription: String { rawValue }
    }

    @Test(arguments: Quiet.allCases)
    func aConnectionThatOpensNoCallIsClosedAfterTheHandshakeTimeout(_ quiet: Quiet) async throws {
        // Long enough for a shell to open its call on a loaded machine (it takes milliseconds);
        // at 200 ms a full test run's load made the shell itself miss it.
        let endpoint = try await RunningEndpoint { $0.handshakeTimeout = .seconds(2) }
        // A shell opens its call as it connects: the timeout never closes it.
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await shell.prompted())
        let connection = try RawConnection(path: endpoint.socket)
        connection.write(quiet.bytes)
        #expect(await connection.readsToEnd(within: .seconds(20)), "the endpoint closes the connection")
        // The quiet connection's timeout fired after the shell's: the shell is still served.
        await endpoint.endpoint.untilConnections { $0 == 1 }
        shell.type(":state beat")
        #expect(await shell.until { $0.printed.contains("Beats(count: 0)") })
        try await endpoint.stop()
    }

    @Test func pastTheConnectionLimitANewConnectionIsClosedAsItComesAndRoomComesBack() async throws {
        let endpoint = try await RunningEndpoint {
            $0.maxConnections = 3
            $0.handshakeTimeout = .seconds(60)
        }
        let held = try (0..<3).map { _ in try RawConnection(path: endpoint.socket) }
        await endpoint.endpoint.untilConnections { $0 == 3 }
        let fourth = try RawConnection(path: endpoint.socket)
        #expect(await fourth.readsToEnd(within: .seconds(20)), "closed as it came")
        for connection in held { connection.close() }
        await endpoint.endpoint.untilConnections { $0 == 0 }
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await shell.prompted())
        try await endpoint.stop()
    }

    @Test func aShellOverALimitOfOneIsToldInTheSingular() async throws {
        let endpoint = try await RunningEndpoint { $0.maxShells = 1 }
        let first = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await first.prompted())
        let second = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await second.until { $0.end != nil })
        guard case .failure(let error)? = second.end else {
            Issue.record("not refused")
            return
        }
        #expect(error.message == "1 shell is attached to beat already (its limit); detach one and try again")
        try await endpoint.stop()
    }
}
