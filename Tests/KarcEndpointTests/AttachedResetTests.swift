import Foundation
import TestSupport
import Testing
import Trellis

/// An actor store that is no `ResettableModel`: a reset would leave it as it is.
actor Keys: StatefulModel {
    var state = 0
    func turn() { state += 1 }
}

struct Turn: Codable, Sendable, Action {}

/// `:reset` through attach says what the app's own prompt says: a target
/// the cluster cannot reset is named, and nothing changes without `--partial`.
@Suite(.timeLimit(.minutes(1)))
struct AttachedResetTests {
    @Test func aResetThatWouldLeaveATargetIsRefusedThroughAttachToo() async throws {
        let endpoint = try await RunningEndpoint(cluster: { _ in
            try await Bootstrap {
                Store(model: Keys.self).mutate(on: Turn.self) { keys, _, _ in keys.turn() }.with(model: Keys()).named("keys")
            }
        })
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await shell.until { $0.messages.contains { if case .prompt = $0.kind { true } else { false } } })
        shell.type(":reset")
        #expect(await shell.until { $0.printed.contains("cannot reset keys") }, "\(shell.printed)")
        #expect(shell.printed.contains("nothing was reset"), "\(shell.printed)")
        try await endpoint.stop()
    }
}
