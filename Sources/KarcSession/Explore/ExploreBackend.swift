import Foundation
import Synchronization

/// Where `explore` runs its sequences: a fresh cluster for each, one
/// command at a time. ``ExploreChild`` runs them in a child process (so a
/// crash is a failure like any other); ``InProcessExplore`` in this one.
package protocol ExploreBackend: Sendable {
    /// A fresh cluster for the next sequence; an error when it cannot be made.
    func startRun() async throws(ExploreError)
    /// Runs one command of the sequence.
    func step(_ line: String) async -> ExploreStepResult
    /// Ends the last cluster (and the child).
    func close() async
    /// Whether a crash writes its backtrace (slow: off while exploring and
    /// shrinking, on for one last replay that explains the crash).
    func setBacktraces(_ on: Bool) async
}

extension ExploreBackend {
    /// A backend in this process has no crash to explain.
    package func setBacktraces(_ on: Bool) async {}
}

/// Sequences run in this process: fast, but a crash ends the explorer too.
package final class InProcessExplore: ExploreBackend {
    package typealias MakeCluster = @Sendable (ExploreClock) async throws -> any ShellCluster

    private let make: MakeCluster
    private let settings: ExploreStepRunner.Settings
    private let current = Mutex<(cluster: any ShellCluster, runner: ExploreStepRunner)?>(nil)

    package init(settings: ExploreStepRunner.Settings, cluster make: @escaping MakeCluster) {
        self.make = make
        self.settings = settings
    }

    package func startRun() async throws(ExploreError) {
        await close()
        let clock = ExploreClock()
        let cluster: any ShellCluster
        do {
            cluster = try await make(clock)
        } catch {
            throw ExploreError("cannot start the cluster: \(error)")
        }
        let runner = ExploreStepRunner(cluster: cluster, clock: clock, settings: settings)
        current.withLock { $0 = (cluster, runner) }
        guard await runner.start() else {
            throw ExploreError("the cluster's start-up work was still going after \(ShellDuration.describe(settings.timeout))")
        }
    }

    package func step(_ line: String) async -> ExploreStepResult {
        guard let runner = current.withLock({ $0?.runner }) else { return .refused("no cluster") }
        return await runner.step(line)
    }

    package func close() async {
        guard let last = current.withLock({ $0.take() }) else { return }
        await last.cluster.shutDown()
    }
}

/// One answer of a worker to its explorer, a JSON line: how a run started
/// or how a command ended.
struct ExploreWireResult: Codable {
    var outcome: String
    var kind: String?
    var detail: String?
    var message: String?
    var strings: [String]?
    var ints: [Int]?
    var uuids: [String]?

    init(_ result: ExploreStepResult) {
        switch result {
        case .ran(let harvest):
            outcome = "ran"
            (strings, ints, uuids) = (harvest.strings, harvest.ints, harvest.uuids)
        case .refused(let message):
            outcome = "refused"
            self.message = message
        case .failed(let failure):
            outcome = "failed"
            message = failure.message
            switch failure.kind {
            case .invariant(let name): (kind, detail) = ("invariant", name)
            case .timeout(let command): (kind, detail) = ("timeout", command)
            case .error(let type): (kind, detail) = ("error", type)
            case .crash(let signal): (kind, detail) = ("crash", "\(signal)")
            case .exit(let status): (kind, detail) = ("exit", "\(status)")
            }
        }
    }

    init(started error: String?) {
        outcome = error == nil ? "started" : "cannot-start"
        message = error
    }

    /// The step result this line tells; nil when it is not one.
    var stepResult: ExploreStepResult? {
        switch outcome {
        case "ran": return .ran(Harvest(strings: strings ?? [], ints: ints ?? [], uuids: uuids ?? []))
        case "refused": return .refused(message ?? "")
        case "failed":
            let detail = self.detail ?? ""
            let kind: ExploreFailure.Kind
            switch self.kind {
            case "invariant": kind = .invariant(detail)
            case "timeout": kind = .timeout(command: detail)
            case "error": kind = .error(type: detail)
            case "crash": kind = .crash(signal: Int32(detail) ?? 0)
            case "exit": kind = .exit(status: Int32(detail) ?? 0)
            default: return nil
            }
            return .failed(ExploreFailure(kind, message ?? ""))
        default: return nil
        }
    }
}

extension Shell {
    /// The child side of ``ExploreChild``: reads `run`, `step LINE` and
    /// `quit` from standard input and answers each with one JSON line on
    /// `resultFD`, running the commands against a fresh cluster per run.
    /// Standard output and error stay the app's (the explorer keeps their
    /// end for a crash's report).
    package static func exploreWorker(resultFD: Int32, settings: ExploreStepRunner.Settings, cluster make: @escaping InProcessExplore.MakeCluster)
        async -> Int32
    {
        let backend = InProcessExplore(settings: settings, cluster: make)
        let input = StandardInputLines()
        let results = FileHandle(fileDescriptor: resultFD, closeOnDealloc: false)
        let encoder = JSONEncoder()
        func answer(_ result: ExploreWireResult) -> Bool {
            guard var data = try? encoder.encode(result) else { return false }
            data.append(0x0A)
            do { try results.write(contentsOf: data) } catch { return false }
            return true
        }
        while let line = await input.next() {
            if line == "quit" { break }
            if line == "run" {
                var failure: String?
                do { try await backend.startRun() } catch { failure = error.message }
                guard answer(ExploreWireResult(started: failure)) else { break }
            } else if line.hasPrefix("step ") {
                let result = await backend.step(String(line.dropFirst(5)))
                guard answer(ExploreWireResult(result)) else { break }
            }
        }
        await backend.close()
        return 0
    }
}
