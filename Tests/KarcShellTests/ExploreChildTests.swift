import Foundation
import Testing

@testable import KarcExplore

#if canImport(Glibc)
import Glibc
#endif

/// The explorer's worker as a terminal's Ctrl-C meets it: the signal is the
/// explorer's alone, which ends the worker itself, so the worker's end is
/// never taken for a failure of the app. The workers here are `sh` scripts
/// that speak the worker's wire (``ExploreWire``).
@Suite(.timeLimit(.minutes(1)))
struct ExploreChildTests {
    /// A worker that starts a run, then answers a step with its process id and process group.
    static let tellsItsGroup = """
        read run; echo started >&3
        read step; printf 'refused\\t%s %s\\n' $$ "$(cut -d' ' -f5 /proc/$$/stat)" >&3
        read quit
        """

    static func worker(_ script: String) -> ExploreChild {
        ExploreChild(executable: "/bin/sh", arguments: ["-c", script], watchdog: .seconds(30))
    }

    @Test func aWorkerLeadsAProcessGroupOfItsOwnSoATerminalsCtrlCReachesOnlyTheExplorer() async throws {
        let child = Self.worker(Self.tellsItsGroup)
        try await child.startRun()
        let answer = await child.step("tell")
        await child.close()
        guard case .refused(let told, _) = answer else {
            Issue.record("the worker answered \(answer)")
            return
        }
        let ids = told.split(separator: " ").compactMap { pid_t($0) }
        #expect(ids.count == 2, "\(told)")
        #expect(ids.first == ids.last, "the worker leads its group: \(told)")
        #expect(ids.last != getpgrp(), "the worker is not in the explorer's group")
    }

    /// Ctrl-C while a worker's crash is being written (`swift-backtrace`, a
    /// process the worker started, holds the worker's pipes open) ends the
    /// wait at once: the worker's process group is killed, not the worker
    /// alone, whose pipes would stay open until the watchdog.
    @Test func ctrlCEndsAWorkerAndWhatItStartedSoTheWaitEndsAtOnce() async throws {
        let child = ExploreChild(
            executable: "/bin/sh",
            arguments: ["-c", "read run; echo started >&3; read step; sleep 300 & printf 'refused\\tstarted\\n' >&3; read step; wait"],
            watchdog: .seconds(300))
        try await child.startRun()
        // The first step leaves a process of the worker's own holding its pipes, as a backtracer does.
        guard case .refused("started", _) = await child.step("start") else {
            Issue.record("the worker did not start its process")
            return
        }
        let waiting = Task { await child.step("hang") }
        child.interrupt()
        guard case .failed = await waiting.value else {
            Issue.record("the step did not end with the worker")
            return
        }
        await child.close()
    }

    @Test func aWorkerStartedAfterCtrlCCameIsEndedAtOnce() async throws {
        let child = Self.worker(Self.tellsItsGroup)
        // Ctrl-C lands while no worker runs (the last one hung and was ended; the next one is being started).
        child.interrupt()
        await #expect(throws: ExploreError.self) { try await child.startRun() }
        await child.close()
    }
}
