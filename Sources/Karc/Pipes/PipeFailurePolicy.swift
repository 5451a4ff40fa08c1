/// What a pipe does when its track throws.
struct PipeFailurePolicy: Sendable {
    let pipeId: String
    let recoverFromError: Bool

    /// Returns to go on; throws to stop the pipe (cancelled) or restart the pipeline.
    /// `answered`: the error is also the answer to a duplex command's producer.
    func handle(_ error: any Error, _ context: PipeContext, answered: Bool = false) throws {
        if Task.isCancelled { throw CancellationError() }
        // A cluster's observers (a shell) see what no producer hears: a logger is often off, and a
        // simplex command or a timer whose pipe failed would otherwise leave no trace.
        if !answered {
            context.monitor?.pipeFailed(
                model: context.modelUid, pipe: "\(context.pipelineId).\(context.pipeId)", error: error, recovering: recoverFromError)
        }
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
