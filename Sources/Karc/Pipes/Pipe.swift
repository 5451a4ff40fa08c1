/// One independent flow of a ``Pipeline``: takes inputs from a source (or runs
/// on its own, by ``Policy``), runs its track on each, and sends the outputs
/// to a drain.
///
/// Declaring N pipes that take the same command type gives that command a
/// capacity of N concurrent sends: the N+1th fails at once with
/// `GateError.noReadyConsumer` (KarcAsync) naming the command type.
public struct Pipe: Sendable {
    /// The pipe's name, unique within its pipeline; used in logs.
    public let id: String
    /// Whether a failing track only fails its input (`true`) or restarts the pipeline.
    public let recoverFromError: Bool
    let prepare: @Sendable (PipeContext) -> PreparedPipe

    /// How a pipe answers its source and shapes its outputs.
    public struct Mode<SI: Sendable, SO: Sendable, TI: Sendable, TO: Sendable, DI: Sendable, DO: Sendable>: Sendable {
        /// Reshapes the stream of source values into track inputs.
        public typealias Intro = @Sendable (AsyncThrowingStream<SI, any Error>) -> AsyncThrowingStream<TI, any Error>
        /// Reshapes the stream of track outputs into drain inputs.
        public typealias Outro = @Sendable (AsyncThrowingStream<TO, any Error>) -> AsyncThrowingStream<DI, any Error>

        enum Kind: Sendable {
            case simplex(instantOutput: SO?, intro: Intro?, outro: Outro?)
            case duplex(outro: Outro?)
        }

        let kind: Kind

        /// The source's producer is answered as soon as the pipe takes its value
        /// (with `instantOutput`, or `()` when `SO` is `Void` or `any Sendable`).
        /// - Parameters:
        ///   - instantOutput: the answer the producer gets.
        ///   - intro: reshapes the stream of source values into track inputs
        ///     (e.g. `{ $0.collect(interval: .seconds(10)) }`); without it the
        ///     pipe takes only the source values of type `TI`.
        ///   - outro: reshapes the track outputs into drain inputs.
        public static func simplex(instantOutput: SO? = nil, intro: Intro? = nil, outro: Outro? = nil) -> Mode {
            Mode(kind: .simplex(instantOutput: instantOutput, intro: intro, outro: outro))
        }

        /// The source's producer is answered with the track's output.
        public static func duplex(outro: Outro? = nil) -> Mode {
            Mode(kind: .duplex(outro: outro))
        }
    }

    /// How many times a pipe without a source runs its track.
    public enum Policy: Sendable, Equatable {
        /// Runs the track `count` times, then the pipe ends.
        case finite(count: Int)
        /// Runs the track again each time it returns, until the pipe stops.
        case infinite
    }

    /// A pipe that takes inputs from `source` and sends outputs to `drain`.
    ///
    /// - Parameters:
    ///   - id: names the pipe in logs; unique within its pipeline.
    ///   - recoverFromError: when the track throws, `true` logs the error
    ///     and the pipe goes on (a duplex producer gets the error as its answer);
    ///     `false` restarts the whole pipeline.
    ///   - mode: simplex or duplex, with the optional intro and outro.
    ///   - source: where the inputs come from (a model's `commandSource`, a gate).
    ///   - drain: where the outputs go.
    ///   - track: what the pipe runs on each input.
    public init<SI, SO, TI, TO, DI, DO>(
        id: String,
        recoverFromError: Bool = true,
        mode: Mode<SI, SO, TI, TO, DI, DO>,
        source: some Source<SI, SO>,
        drain: some Drain<DI, DO>,
        track: @escaping PipeTrack<TI, TO>
    ) {
        self.init(
            id: id, recoverFromError: recoverFromError, mode: mode, source: source,
            sink: PipeSink(drain: drain, outro: mode.outro), track: track)
    }

    /// A pipe that takes inputs from `source` and keeps its outputs to itself
    /// (a duplex pipe still answers its producers with them).
    public init<SI, SO, TI, TO>(
        id: String,
        recoverFromError: Bool = true,
        mode: Mode<SI, SO, TI, TO, TO, Void>,
        source: some Source<SI, SO>,
        track: @escaping PipeTrack<TI, TO>
    ) {
        self.init(
            id: id, recoverFromError: recoverFromError, mode: mode, source: source,
            sink: PipeSink<TO, TO, Void>.discard, track: track)
    }

    /// A pipe without a source that runs its track as `policy` says.
    public init(
        id: String,
        recoverFromError: Bool = true,
        policy: Policy,
        _ track: @escaping PipeTrack<Void, Void>
    ) {
        self.id = id
        self.recoverFromError = recoverFromError
        let failures = PipeFailurePolicy(pipeId: id, recoverFromError: recoverFromError)
        self.prepare = { context in
            // A finite pipe is work in flight from its activation until its last run
            // (retries included), so a cluster settles only after, say, a bootstrap
            // pipe restored its state. An infinite one never ends: it is not counted.
            let hold = policy == .infinite ? nil : context.activity.map(ActivityHold.init)
            return PreparedPipe {
                defer { hold?.release() }
                try await PipeFlows.runPolicy(policy, track: track, failures: failures, context: context)
            }
        }
    }

    init<SI, SO, TI, TO, DI, DO>(
        id: String,
        recoverFromError: Bool,
        mode: Mode<SI, SO, TI, TO, DI, DO>,
        source: some Source<SI, SO>,
        sink: PipeSink<TO, DI, DO>,
        track: @escaping PipeTrack<TI, TO>
    ) {
        self.id = id
        self.recoverFromError = recoverFromError
        let failures = PipeFailurePolicy(pipeId: id, recoverFromError: recoverFromError)
        switch mode.kind {
        case .duplex:
            self.prepare = { context in
                // Attach now, so the pipe takes commands as soon as its pipeline is active.
                let consumer = source.makeConsumer(consumerId: GateIdentifier.next(), spec: .type(TI.self), instantOutput: nil)
                let counted = PipeFlows.count(consumer, context)
                return PreparedPipe {
                    try await PipeFlows.runDuplex(
                        consumer: consumer, counted: counted, track: track, sink: sink, failures: failures, context: context)
                }
            }
        case .simplex(let instantOutput, let intro, _):
            self.prepare = { context in
                guard let instant = instantOutput ?? (() as? SO) else {
                    return PreparedPipe {
                        throw PipeConfigurationError(pipeId: id, message: "a simplex pipe whose source answers \(SO.self) needs instantOutput:")
                    }
                }
                let spec: Spec<SI> = intro == nil ? .type(TI.self) : .all
                let consumer = source.makeConsumer(consumerId: GateIdentifier.next(), spec: spec, instantOutput: instant)
                let counted = PipeFlows.count(consumer, context)
                return PreparedPipe {
                    try await PipeFlows.runSimplex(
                        consumer: consumer, counted: counted, intro: intro, track: track, sink: sink, failures: failures, context: context)
                }
            }
        }
    }
}

extension Pipe.Mode {
    var outro: Outro? {
        switch kind {
        case .simplex(_, _, let outro), .duplex(let outro): return outro
        }
    }
}

/// A pipe whose consumer is attached, ready to run.
struct PreparedPipe: Sendable {
    let run: @Sendable () async throws -> Void
}

/// A pipe that cannot run as declared; the pipeline logs it and leaves the pipe stopped.
struct PipeConfigurationError: Error, CustomStringConvertible {
    let pipeId: String
    let message: String
    var description: String { "pipe '\(pipeId)' cannot run: \(message)" }
}

/// A track failed in a pipe that does not recover: its pipeline restarts.
struct PipeFailure: Error, CustomStringConvertible {
    let pipeId: String
    let underlying: any Error
    var description: String { "pipe '\(pipeId)' failed: \(underlying)" }
}

/// Builds the pipes of a pipeline from pipe expressions, `if` and `for`.
@resultBuilder
public enum PipeBuilder {
    /// Result builder: one component.
    public static func buildExpression(_ pipe: Pipe) -> [Pipe] { [pipe] }
    /// Result builder: one component.
    public static func buildExpression(_ pipes: [Pipe]) -> [Pipe] { pipes }
    /// Result builder: the components of a block, in order.
    public static func buildBlock(_ parts: [Pipe]...) -> [Pipe] { parts.flatMap { $0 } }
    /// Result builder: an `if` without `else` (nothing when false).
    public static func buildOptional(_ part: [Pipe]?) -> [Pipe] { part ?? [] }
    /// Result builder: the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: [Pipe]) -> [Pipe] { first }
    /// Result builder: the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: [Pipe]) -> [Pipe] { second }
    /// Result builder: a `for` loop's components.
    public static func buildArray(_ parts: [[Pipe]]) -> [Pipe] { parts.flatMap { $0 } }
}
