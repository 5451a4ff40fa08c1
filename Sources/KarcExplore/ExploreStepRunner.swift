import Foundation
import KarcAsync
import KarcLanguage
import KarcRendering
import KarcSession
import KarcSynchronization

/// Runs generated commands against one cluster and says what each did:
/// the worker of `explore`, in the child process (``ExploreWorker``) or in
/// the explorer's own (`--in-process`).
///
/// A command is sent to its target and waited for within `timeout`, then
/// the work it started is, then time moves on by `tick` (timers fire) and
/// that work is waited for too; then the invariants are asked.
package final class ExploreStepRunner: Sendable {
    package struct Settings: Sendable {
        package var timeout: Duration = .seconds(5)
        package var tick: Duration = .seconds(1)
        /// Error types (their Swift names) that are bugs, not refusals.
        package var failOn: Set<String> = []
        package init() {}

        /// Whether `--fail-on NAME` names errors of `type`: the type's name
        /// (`SafeJammed`), or its last parts (`Jammed` of `Safe.Jammed`).
        package static func errorType(_ type: String, isNamedBy name: String) -> Bool {
            type == name || type.hasSuffix("." + name)
        }
    }

    private let cluster: any ShellCluster
    private let clock: ExploreClock
    private let settings: Settings
    private let builder: CommandBuilder
    private let broken = KarcMutex<Set<String>>([])

    package init(cluster: any ShellCluster, clock: ExploreClock, settings: Settings) {
        // Nobody reads its records here: a cluster that stops keeping them sends on its fast path (no
        // trace, no record), and what explore looks at (replies, states, invariants) it reads directly.
        (cluster as? any ObservingCluster)?.stopObserving()
        self.cluster = cluster
        self.clock = clock
        self.settings = settings
        builder = CommandBuilder(catalog: cluster.catalog)
    }

    /// Waits for the cluster's start-up work; false when it did not end in time.
    package func start() async -> Bool {
        await cluster.settled(timeout: settings.timeout)
    }

    /// Runs `line` (one generated command).
    package func step(_ line: String) async -> ExploreStepResult {
        let invocation: Invocation
        do {
            guard case .command(let parsed) = try LineParser.parse(line) else { return .refused("not a command: \(line)") }
            invocation = parsed
        } catch {
            return .refused("column \(error.column): \(error.message)")
        }
        let built: (target: TargetSchema, command: CommandSchema, value: any Sendable)
        do {
            built = try builder.build(invocation)
        } catch {
            return .refused(error.message)
        }
        let name = "\(built.target.name).\(built.command.name)"
        guard let sent = await send(built.value, to: built.target.name) else {
            return .failed(ExploreFailure(.timeout(command: name), "\(name) did not answer within \(ShellDuration.describe(settings.timeout))"))
        }
        var result: ExploreStepResult
        switch sent {
        case .success(let reply):
            if let reply, let failure = ValueText.failure(in: reply) {
                result = .refused("\(name) replied with a failure: \(failure)")
            } else {
                var harvest = Harvest()
                if let reply { harvest.harvest(reply) }
                if let state = await cluster.state(of: built.target.name) { harvest.harvest(state) }
                result = .ran(harvest)
            }
        case .failure(let error):
            let type = String(describing: Swift.type(of: error))
            if settings.failOn.contains(where: { Settings.errorType(type, isNamedBy: $0) }) {
                return .failed(ExploreFailure(.error(type: type), "\(name) failed with \(type): \(error)"))
            }
            result = .refused("\(name) failed: \(error)", errorType: type)
        }
        guard await settle() else {
            return .failed(
                ExploreFailure(.timeout(command: name), "the work \(name) started was still going after \(ShellDuration.describe(settings.timeout))"))
        }
        if let failure = await tick(after: name) { return .failed(failure) }
        // A cluster that cannot stop keeping records for a shell is drained, so they do not pile up.
        _ = cluster.takeRecords()
        if let checking = cluster as? any InvariantCheckingShellCluster, checking.declaresInvariants,
            let failure = await invariants(of: checking, after: name)
        {
            return .failed(failure)
        }
        return result
    }

    /// The send, or nil when it did not answer within the timeout (it may
    /// go on). While it waits, time moves on (``advanceWhileWaiting(since:)``).
    private func send(_ value: any Sendable, to target: String) async -> Result<(any Sendable)?, any Error>? {
        let cluster = self.cluster
        let answer = Answer()
        // Started on this thread: a send that never suspends has answered before the wait below, with no hop.
        let sending = Task.immediate {
            let result: Result<(any Sendable)?, any Error>
            do { result = .success(try await cluster.send(value, to: target)) } catch { result = .failure(error) }
            answer.set(result)
        }
        let start = ContinuousClock.now
        while true {
            if let result = await answer.wait(upTo: Self.slice) { return result }
            guard await advanceWhileWaiting(since: start) else {
                sending.cancel()
                return nil
            }
        }
    }

    /// Waits until the work in flight is done, time moving on meanwhile; false after the timeout.
    private func settle() async -> Bool {
        let start = ContinuousClock.now
        while true {
            if await cluster.settled(timeout: Self.slice) { return true }
            guard await advanceWhileWaiting(since: start) else { return false }
        }
    }

    /// A slice of real time a waiting command gets before the cluster's clock moves on.
    static let slice: Duration = .milliseconds(5)

    /// After a slice of real time a command has not ended in: if something
    /// waits on the cluster's clock (a reply that comes at the next tick),
    /// time moves on by the tick. False once the command has taken longer
    /// than the timeout in real time.
    private func advanceWhileWaiting(since start: ContinuousClock.Instant) async -> Bool {
        guard ContinuousClock.now - start < settings.timeout else { return false }
        if settings.tick > .zero, clock.sleepers > 0 {
            clock.advance(by: settings.tick)
            for _ in 0..<8 { await Task.yield() }
        }
        return true
    }

    /// Moves time on by the tick and waits for what the timers started.
    private func tick(after name: String) async -> ExploreFailure? {
        guard settings.tick > .zero else { return nil }
        guard clock.advance(by: settings.tick) > 0 else { return nil }
        // The woken timers' tasks run before the cluster counts their work: let them start.
        for _ in 0..<8 { await Task.yield() }
        guard await settle() else {
            return ExploreFailure(
                .timeout(command: name), "the timers' work after \(name) was still going after \(ShellDuration.describe(settings.timeout))")
        }
        return nil
    }

    /// An invariant that held before this command and does not now.
    private func invariants(of cluster: any InvariantCheckingShellCluster, after name: String) async -> ExploreFailure? {
        let found = Set(await cluster.brokenInvariants())
        let new = broken.withLock { old in
            defer { old = found }
            return found.subtracting(old).sorted()
        }
        guard let first = new.first else { return nil }
        return ExploreFailure(.invariant(first), "invariant \(first) does not hold after \(name)")
    }

    /// The send's result, which the step waits for a slice at a time.
    private final class Answer: Sendable {
        private struct State {
            var result: Result<(any Sendable)?, any Error>?
            var waiter: CheckedContinuation<Void, Never>?
        }

        private let state = KarcMutex(State())

        func set(_ result: Result<(any Sendable)?, any Error>) {
            state.withLock { s in
                s.result = result
                return s.waiter.take()
            }?.resume()
        }

        /// The result, once there or after `slice`, whichever is first.
        func wait(upTo slice: Duration) async -> Result<(any Sendable)?, any Error>? {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { s -> Bool in
                    if s.result != nil { return true }
                    s.waiter = continuation
                    return false
                }
                if ready { return continuation.resume() }
                Task {
                    try? await Task.sleep(for: slice)
                    self.state.withLock { $0.waiter.take() }?.resume()
                }
            }
            return state.withLock { $0.result }
        }
    }
}
