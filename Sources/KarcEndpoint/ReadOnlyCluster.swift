import KarcLanguage
import KarcSession

/// A cluster seen through a read-only endpoint: states, records and
/// `:wait` work; every send is refused, and says why.
struct ReadOnlyCluster: ShellCluster {
    let base: any ShellCluster

    struct Refused: Error, CustomStringConvertible {
        var description: String {
            "refused: this endpoint is read-only (sends are off; :state, :wait and what the app does still show)"
        }
    }

    var name: String { base.name }
    var catalog: Catalog { base.catalog }

    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? {
        throw Refused()
    }

    func takeRecords() -> [ShellRecord] { base.takeRecords() }
    var recordBuffer: Int { base.recordBuffer }
    func nextRecords() async -> [ShellRecord]? { await base.nextRecords() }
    func settled(timeout: Duration) async -> Bool { await base.settled(timeout: timeout) }
    func state(of target: String) async -> (any Sendable)? { await base.state(of: target) }
    var workInFlight: Int? { base.workInFlight }
    func settled(timeout: Duration, beyond baseline: Int) async -> Bool { await base.settled(timeout: timeout, beyond: baseline) }
    func sessionStarted() { base.sessionStarted() }
    func brokenInvariants() async -> [String] { await base.brokenInvariants() }
    var declaresInvariants: Bool { base.declaresInvariants }
    var changesFromElsewhere: String { base.changesFromElsewhere }
}
