import KarcSynchronization

/// A group of independent pipes that implement one feature of a model, run
/// while the model's ``Model/scopes(_:_:)`` include it.
///
/// Define pipelines as factory methods in an extension of the model's
/// `Interactor`, so pipes can reach `state`, `commandSource`, `effectDrain`…
///
/// ```swift
/// extension TestModel.Interactor {
///     func main() -> Pipeline {
///         Pipeline {
///             Pipe(id: "increment", mode: .duplex(), source: commandSource) { (c: Increment, _) in
///                 try await sendEffects(.add(c.by))
///             }
///         }
///     }
/// }
/// ```
///
/// When the pipeline becomes active, its `@Use` resources are acquired and its
/// `@Inject` resources resolved, its pipes attach to their sources (so sends
/// are accepted at once), `begin` runs, then the pipes run. `end` runs when the
/// pipeline stops: when its scope goes away, at tear-down, or before a restart.
/// When a pipe that does not recover fails, the pipes stop, `end` runs and the
/// pipeline starts again (after a pause that grows with consecutive failures).
public struct Pipeline: Sendable {
    /// The factory's name (`#function`, without its parentheses): with ``id``, the scope's identity.
    public let tag: String
    /// The pipeline's id, as text (the default id's when none was given).
    public let id: String

    /// How logs and pipe contexts name it: the tag, with the id in parentheses unless it is the default one.
    var name: String { id == DefaultId.shared.description ? tag : "\(tag)(\(id))" }
    let begin: PipeTrack<Void, Void>?
    let end: PipeTrack<Void, Void>?
    let pipes: @Sendable () -> [Pipe]
    let slots: [any ResourceSlot]

    /// A pipeline named by `tag` and `id`, whose `begin` runs before its pipes start and `end` after they stop.
    public init<Id: Hashable & Sendable>(
        tag: String = #function,
        id: Id,
        begin: PipeTrack<Void, Void>? = nil,
        end: PipeTrack<Void, Void>? = nil,
        @PipeBuilder pipes: @escaping @Sendable () -> [Pipe]
    ) {
        self.init(tag: tag, idString: "\(id)", begin: begin, end: end, pipes: pipes)
    }

    /// A pipeline named by `tag` (default id), whose `begin` runs before its pipes start and `end` after they stop.
    public init(
        tag: String = #function,
        begin: PipeTrack<Void, Void>? = nil,
        end: PipeTrack<Void, Void>? = nil,
        @PipeBuilder pipes: @escaping @Sendable () -> [Pipe]
    ) {
        // Not through the generic init: interpolating `DefaultId` goes through `print`'s
        // dynamic casts, and this runs on every change of state.
        self.init(tag: tag, idString: DefaultId.shared.description, begin: begin, end: end, pipes: pipes)
    }

    private init(
        tag: String,
        idString: String,
        begin: PipeTrack<Void, Void>?,
        end: PipeTrack<Void, Void>?,
        pipes: @escaping @Sendable () -> [Pipe]
    ) {
        // `#function` gives "main()"; the scope is named "main". Searched in the
        // UTF-8 bytes: re-evaluated on every change of state.
        var function = tag
        self.tag =
            function.withUTF8 { bytes in
                guard let paren = bytes.firstIndex(of: UInt8(ascii: "(")) else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<paren]), as: UTF8.self)
            } ?? tag
        self.id = idString
        self.begin = begin
        self.end = end
        self.pipes = pipes
        self.slots = PipelineBuildContext.takeSlots()
    }

    var scope: Scope {
        let pipeline = self
        return Scope(key: ScopeKey(kind: "pipeline", name: tag, id: id)) { PipelineRunner(pipeline) }
    }
}

final class PipelineRunner: ScopeRunner {
    let pipeline: Pipeline
    private let task = Locked<Task<Void, Never>?>(nil)

    init(_ pipeline: Pipeline) { self.pipeline = pipeline }

    func start(_ scope: ScopeContext) async {
        // The first attempt is prepared here, so the pipes accept values when activation returns.
        // Handed over in a box the run loop empties: a closure capture would keep
        // these consumers attached for as long as the pipeline runs, restarts included.
        let first = Locked(await prepare(scope))
        // A pipeline outlives whatever activated it: it starts outside any trace, and each value it
        // takes brings its own (a timer's run starts one).
        task.set(Task { await TraceCarrier.none.run { await run(scope, first: first) } })
    }

    func stop() async {
        guard let task = task.take() else { return }
        task.cancel()
        await task.value
    }

    private func context(_ scope: ScopeContext, pipe: String) -> PipeContext {
        PipeContext(
            modelUid: scope.modelUid, pipelineId: pipeline.name, pipeId: pipe, logger: scope.logger, activity: scope.activity,
            clock: scope.environ.clock, traceName: scope.traceName, monitor: scope.monitor)
    }

    /// Readies resources and attaches every pipe; `nil` (logged) when a resource is unavailable.
    private func prepare(_ scope: ScopeContext) async -> [(id: String, pipe: PreparedPipe)]? {
        do {
            for slot in pipeline.slots { try await slot.prepare() }
        } catch {
            context(scope, pipe: "resources").logError("cannot start: \(error)")
            await release()
            return nil
        }
        return pipeline.pipes().map { pipe in (pipe.id, pipe.prepare(context(scope, pipe: pipe.id))) }
    }

    private func release() async {
        for slot in pipeline.slots { await slot.finish() }
    }

    private func run(_ scope: ScopeContext, first: Locked<[(id: String, pipe: PreparedPipe)]?>) async {
        var attempt = first.take()
        var consecutiveFailures = 0
        while !Task.isCancelled {
            if attempt == nil { attempt = await prepare(scope) }
            var failed = true
            if let pipes = attempt {
                attempt = nil
                failed = await execute(pipes, scope)
                await release()
            }
            guard failed, !Task.isCancelled else { return }
            consecutiveFailures += 1
            let delay = PipeFailurePolicy.restartDelay(consecutiveFailures: consecutiveFailures)
            context(scope, pipe: "-").logWarning("restarting (attempt \(consecutiveFailures + 1))")
            try? await scope.environ.clock.sleep(for: delay)
        }
    }

    /// Runs begin, the pipes and end; `true` when a pipe failed and the pipeline must restart.
    private func execute(_ pipes: [(id: String, pipe: PreparedPipe)], _ scope: ScopeContext) async -> Bool {
        if let begin = pipeline.begin {
            let ctx = context(scope, pipe: "begin")
            do { try await begin((), ctx) } catch { ctx.logError("begin failed: \(error)") }
        }
        let failed = await withTaskGroup(of: Bool.self) { group in
            for (id, pipe) in pipes {
                let ctx = context(scope, pipe: id)
                group.addTask {
                    do {
                        try await pipe.run()
                    } catch is PipeFailure {
                        return true
                    } catch is CancellationError {
                    } catch {
                        ctx.logError("stopped: \(error)")
                    }
                    return false
                }
            }
            for await failed in group where failed {
                group.cancelAll()
                return true
            }
            return false
        }
        // Pipes that all finished (a bootstrap, say) leave the pipeline active until it is stopped.
        if !failed { await untilCancelled() }
        if let end = pipeline.end {
            let ctx = context(scope, pipe: "end")
            do { try await end((), ctx) } catch { ctx.logError("end failed: \(error)") }
        }
        return failed
    }
}

/// Returns when the current task is cancelled.
func untilCancelled() async {
    let (never, continuation) = AsyncStream<Void>.makeStream()
    await withTaskCancellationHandler {
        for await _ in never {}
    } onCancel: {
        continuation.finish()
    }
}
