import KarcSession

/// A cluster seen through a read-only endpoint: states, records and
/// `:wait` work; every send (and `:reset`, `:restore`, `:undo`) is refused, and says why.
struct ReadOnlyCluster: ClusterWrapper {
    let base: any ShellCluster

    struct Refused: Error, CustomStringConvertible {
        var description: String {
            "refused: this endpoint is read-only (sends are off; :state, :wait and what the app does still show)"
        }
    }

    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? {
        throw Refused()
    }

    func send(_ command: any Sendable, to target: String, span: UInt64) async throws -> (any Sendable)? {
        throw Refused()
    }

    func reset() async throws {
        throw Refused()
    }

    func restore(_ states: [String: any Sendable], span: UInt64) async throws {
        throw Refused()
    }
}
