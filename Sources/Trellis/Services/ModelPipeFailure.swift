/// A pipe of a model mounted in the cluster threw: what observers see (a
/// ``ClusterRecord/Kind-swift.enum/failed(sequence:error:)`` record,
/// sequence 0, in the trace of the work that failed), whether or not the
/// model's logger is on.
///
/// A shell prints it under the command whose work failed:
/// `failed: account's pipe main.register threw AccountExists(); it goes on`.
public struct ModelPipeFailure: Error, CustomStringConvertible {
    /// The target the model is mounted as (a submodel: its own `uid`).
    public let target: String
    /// The pipe, as `pipeline.pipe` (`main.register`).
    public let pipe: String
    /// What its track threw.
    public let error: any Error
    /// Whether the pipe goes on (`recoverFromError`), or its pipeline restarts.
    public let recovering: Bool

    /// A failure of `pipe` of `target`.
    public init(target: String, pipe: String, error: any Error, recovering: Bool) {
        self.target = target
        self.pipe = pipe
        self.error = error
        self.recovering = recovering
    }

    public var description: String {
        "\(target)'s pipe \(pipe) threw \(error); " + (recovering ? "it goes on" : "its pipeline restarts")
    }
}
