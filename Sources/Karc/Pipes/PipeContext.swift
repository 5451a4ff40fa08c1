import KarcAsync
import Logging

/// What a pipe's track knows about where it runs, and its logger.
public struct PipeContext: Sendable {
    /// The `uid` of the pipe's model.
    public let modelUid: String
    /// The name of the pipe's pipeline: its factory's name, with its id in parentheses unless it is the default one (`main`, `shelf(left)`).
    public let pipelineId: String
    /// The pipe's id.
    public let pipeId: String
    /// The model's logger.
    public let logger: Logger
    /// Where the pipe counts the values it takes from a gate (see `ActivityGauge`).
    let activity: ActivityGauge?
    /// What the pipe waits on before it restarts after a failure (the environ's).
    let clock: any Clock<Duration>
    /// The model's name in traces (its target's in a cluster).
    let traceName: String
    /// Told of the pipe's failures (a cluster's observers see them), when a cluster mounted the model.
    let monitor: (any ModelMonitor)?

    init(
        modelUid: String, pipelineId: String, pipeId: String, logger: Logger, activity: ActivityGauge? = nil,
        clock: any Clock<Duration> = ContinuousClock(), traceName: String? = nil, monitor: (any ModelMonitor)? = nil
    ) {
        self.monitor = monitor
        self.traceName = traceName ?? modelUid
        self.modelUid = modelUid
        self.pipelineId = pipelineId
        self.pipeId = pipeId
        self.logger = logger
        self.activity = activity
        self.clock = clock
    }

    var prefix: String { "[\(modelUid)|\(pipelineId)|\(pipeId)]" }

    /// Logs at debug level, prefixed with the model, pipeline and pipe.
    public func logDebug(_ message: @autoclosure () -> String) { logger.debug("\(prefix) \(message())") }
    /// Logs at info level, prefixed with the model, pipeline and pipe.
    public func logInfo(_ message: @autoclosure () -> String) { logger.info("\(prefix) \(message())") }
    /// Logs at warning level, prefixed with the model, pipeline and pipe.
    public func logWarning(_ message: @autoclosure () -> String) { logger.warning("\(prefix) \(message())") }
    /// Logs at error level, prefixed with the model, pipeline and pipe.
    public func logError(_ message: @autoclosure () -> String) { logger.error("\(prefix) \(message())") }
}

/// The body of a pipe: takes one input, may cause side effects, returns one output.
///
/// A track runs where its pipe runs it: in the pipe's task, or in the task of
/// the producer whose command it answers (see `Pipe`). It is
/// `nonisolated(nonsending)`, so entering it costs no executor switch; an
/// actor-isolated function passed as a track still runs on its actor.
public typealias PipeTrack<I, O> = nonisolated(nonsending) @Sendable (I, PipeContext) async throws -> O
