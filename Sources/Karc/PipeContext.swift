import Logging

/// What a pipe's track knows about where it runs, and its logger.
public struct PipeContext: Sendable {
    public let modelUid: String
    public let pipelineId: String
    public let pipeId: String
    public let logger: Logger

    var prefix: String { "[\(modelUid)|\(pipelineId)|\(pipeId)]" }

    public func logDebug(_ message: @autoclosure () -> String) { logger.debug("\(prefix) \(message())") }
    public func logInfo(_ message: @autoclosure () -> String) { logger.info("\(prefix) \(message())") }
    public func logWarning(_ message: @autoclosure () -> String) { logger.warning("\(prefix) \(message())") }
    public func logError(_ message: @autoclosure () -> String) { logger.error("\(prefix) \(message())") }
}

/// The body of a pipe: takes one input, may cause side effects, returns one output.
public typealias PipeTrack<I, O> = @Sendable (I, PipeContext) async throws -> O
