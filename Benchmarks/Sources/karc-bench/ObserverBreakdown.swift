import Foundation
import KarcSessionTrellis
import Trellis

/// `observers.breakdown` (a diagnostic, run alone: `KARC_BENCH_ONLY=observers.breakdown`):
/// what one more observer costs `cluster.send.store.attached`'s baseline (a
/// store and one observer keeping old states, drained record by record), by
/// what that observer does, each in turn (``inTurn(_:_:_:)``) against the
/// baseline alone. The first line measures the baseline against itself:
/// the figures' noise. `KARC_BENCH_BREAKDOWN=TEXT` runs only the observers
/// whose name holds TEXT.
func observerBreakdown(_ n: Int) async throws -> [(String, Double)] {
    /// The baseline with `extra` (the observer's task, made before the first send) beside it; its task ends with the round.
    func store(_ extra: (@Sendable (Cluster) -> Task<Void, Never>)? = nil) async throws -> (ObservedStore, Task<Void, Never>?) {
        var task: Task<Void, Never>?
        let store = try await ObservedStore(keepingTraces: false) { cluster in
            task = extra?(cluster)
            return cluster.observe()
        }
        return (store, task)
    }
    /// An observer that takes what it buffered every 20 ms, as a shell between its commands does.
    @Sendable func takingEvery20ms(_ take: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(20))
                take()
            }
        }
    }
    /// An observer with room for `room` records that never takes one, as a stalled shell's session.
    @Sendable func neverTaking(_ cluster: Cluster, room: Int) -> Task<Void, Never> {
        let observation = cluster.observe(bufferSize: room, keepingOldStates: false)
        return Task {
            await withTaskCancellationHandler {
                try? await Task.sleep(for: .seconds(3600))
            } onCancel: {
                observation.cancel()
            }
        }
    }
    let extras: [(String, (@Sendable (Cluster) -> Task<Void, Never>)?)] = [
        ("the baseline again (noise)", nil),
        ("an observer that never takes", { neverTaking($0, room: 100_000) }),
        ("an observer that never takes, with room for 1,000 records", { neverTaking($0, room: 1_000) }),
        (
            "a plain observer taking every 20 ms",
            { cluster in
                let observation = cluster.observe(bufferSize: 100_000, keepingOldStates: false)
                return takingEvery20ms { _ = observation.takeAvailable() }
            }
        ),
        (
            "a rooted observer taking every 20 ms",
            { cluster in
                let observation = cluster.observe(bufferSize: 100_000, keepingOldStates: false, roots: true)
                return takingEvery20ms { _ = observation.takeAvailable() }
            }
        ),
        (
            "a shell's observation taking every 20 ms",
            { cluster in
                let shell = ClusterShell(name: "bench", cluster: cluster)
                return takingEvery20ms { _ = shell.takeRecords() }
            }
        ),
        (
            "a plain observer drained record by record",
            { cluster in
                let observation = cluster.observe(bufferSize: 100_000, keepingOldStates: false)
                return Task { for await _ in observation {} }
            }
        ),
        (
            "a rooted observer drained record by record",
            { cluster in
                let observation = cluster.observe(bufferSize: 100_000, keepingOldStates: false, roots: true)
                return Task { for await _ in observation {} }
            }
        ),
    ]
    // KARC_BENCH_BREAKDOWN=TEXT: only the observers whose name holds TEXT (to profile one).
    let only = ProcessInfo.processInfo.environment["KARC_BENCH_BREAKDOWN"]
    var results: [(String, Double)] = []
    for (name, extra) in extras where only.map({ name.contains($0) }) ?? true {
        let (baseline, _) = try await store()
        let (observed, task) = try await store(extra)
        results.append((name, try await inTurn(n, baseline, observed).ratio * 100))
        task?.cancel()
        await task?.value
    }
    return results
}
