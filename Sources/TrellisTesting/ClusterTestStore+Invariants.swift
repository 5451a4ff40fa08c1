import CustomDump
import Testing
import Trellis

extension ClusterTestStore {
    /// Expects every invariant the cluster's targets declare
    /// (`.invariant(_:_:)`) to hold for their states now; each one that does
    /// not fails the test, naming it and its target, with the state.
    public func expectInvariants(sourceLocation: SourceLocation = #_sourceLocation) async {
        for target in cluster.targets where !target.invariants.isEmpty {
            guard let read = target.state else { continue }
            let state = await read()
            for invariant in target.invariants where invariant.holds(for: state) == false {
                Issue.record(
                    "invariant '\(invariant.name)' of \(target.name) does not hold; its state:\n\(String(customDumping: state))",
                    sourceLocation: sourceLocation)
            }
        }
    }
}
