import KarcAsync
import KarcSynchronization
import Synchronization

/// What ``withDeadline(_:_:)`` throws when its body is still running at the deadline.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let what: String
    public let seconds: Int
    public var description: String { "\(what): still waiting after \(seconds) s (a hang)" }
}

/// Runs `body` and returns its result, or throws ``DeadlineExceeded`` when it
/// has not finished after `seconds` of real time, so a hang fails the test
/// with a message instead of holding the run. The body runs in a task of its
/// own: a body stuck in something it cannot cancel is left behind, not waited
/// for (a task group would wait for it). Never a timing assertion: it returns
/// as soon as the body does. The default is far above any run, loaded or
/// not (100 concurrent senders, 4 ms alone, took 18 s beside the whole suite
/// and a fuzzer on two cores: each of their 1,100 lock hand-offs waits its
/// turn in a busy global queue) and below a test's one-minute time limit.
@discardableResult
public func withDeadline<T: Sendable>(
    _ what: String, seconds: Int = 40, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = KarcMutex<CheckedContinuation<T, any Error>?>(nil)
    let finish: @Sendable (Result<T, any Error>) -> Void = { result in
        outcome.withLock { $0.take() }?.resume(with: result)
    }
    return try await withCheckedThrowingContinuation { continuation in
        outcome.withLock { $0 = continuation }
        let run = Task {
            do { finish(.success(try await body())) } catch { finish(.failure(error)) }
        }
        let alarm = Task {
            try? await Task.sleep(for: .seconds(seconds))
            if Task.isCancelled { return }
            finish(.failure(DeadlineExceeded(what: what, seconds: seconds)))
            run.cancel()
        }
        // The alarm is cancelled once the body is done, so no timer outlives a passing test.
        Task {
            _ = await run.value
            alarm.cancel()
        }
    }
}
