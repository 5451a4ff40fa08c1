import Foundation
import KarcAsync
import KarcSession
import KarcSynchronization

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
    /// Ctrl-C: ends the command in flight now, however it ends (called from
    /// any thread, while a step may be waiting).
    func interrupt()
}

extension ExploreBackend {
    /// A backend in this process has no crash to explain.
    package func setBacktraces(_ on: Bool) async {}
    /// A backend in this process cannot end a command early: it ends within `--timeout`.
    package func interrupt() {}
}

/// Sequences run in this process: fast, but a crash ends the explorer too.
package final class InProcessExplore: ExploreBackend {
    package typealias MakeCluster = @Sendable (ExploreClock) async throws -> any ShellCluster

    private let make: MakeCluster
    private let settings: ExploreStepRunner.Settings
    private let current = KarcMutex<(cluster: any ShellCluster, runner: ExploreStepRunner)?>(nil)

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

/// The explorer's requests, read by the worker's own task: a blocking read
/// between two commands, while the cluster has nothing in flight, costs no
/// hand-over to a reading thread and back (a tenth of a command's time).
private final class RequestLines {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(fd: Int32) { self.fd = fd }

    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line
            }
            if ended { return nil }
            let count = readAppending(fd, to: &buffer)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { ended = true }
        }
    }
}

extension Shell {
    /// The child side of ``ExploreChild``: reads `run`, `step LINE` and
    /// `quit` from standard input and answers each with one line on
    /// `resultFD`, running the commands against a fresh cluster per run.
    /// Standard output and error stay the app's (the explorer keeps their
    /// end for a crash's report).
    package static func exploreWorker(resultFD: Int32, settings: ExploreStepRunner.Settings, cluster make: @escaping InProcessExplore.MakeCluster)
        async -> Int32
    {
        let backend = InProcessExplore(settings: settings, cluster: make)
        let input = RequestLines(fd: STDIN_FILENO)
        func answer(_ line: String) -> Bool {
            var bytes = Array(line.utf8)
            bytes.append(0x0A)
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { Foundation.write(resultFD, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
        while let line = input.next() {
            if line == "quit" { break }
            if line == "run" {
                var failure: String?
                do { try await backend.startRun() } catch { failure = error.message }
                guard answer(ExploreWire.started(error: failure)) else { break }
            } else if line.hasPrefix("step ") {
                let result = await backend.step(String(line.dropFirst(5)))
                guard answer(ExploreWire.line(result)) else { break }
            }
        }
        await backend.close()
        return 0
    }
}
