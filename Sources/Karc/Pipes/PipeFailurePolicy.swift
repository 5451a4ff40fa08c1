/// What a pipe does when its track throws.
struct PipeFailurePolicy: Sendable {
    let pipeId: String
    let recoverFromError: Bool

    /// Returns to go on; throws to stop the pipe (cancelled) or restart the pipeline.
    func handle(_ error: any Error, _ context: PipeContext) throws {
        if Task.isCancelled { throw CancellationError() }
        if recoverFromError {
            context.logWarning("failed: \(error); recovering")
            return
        }
        context.logError("failed: \(error); restarting the pipeline")
        throw PipeFailure(pipeId: pipeId, underlying: error)
    }

    /// Pause before the Nth consecutive restart of a failing pipe: none for the
    /// first, then 10 ms doubling to 1 s, so a persistent failure never spins.
    static func restartDelay(consecutiveFailures n: Int) -> Duration {
        n <= 1 ? .zero : min(.milliseconds(10 << min(n - 2, 7)), .seconds(1))
    }
}
