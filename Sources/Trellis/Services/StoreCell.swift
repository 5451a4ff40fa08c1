import KarcAsync
import KarcSynchronization
import Synchronization

/// The model a store owns. Value models are changed one handler at a time.
///
/// A value handler holds the cell for as long as it runs, suspensions
/// included, so an action it sends that comes back to this cell cannot wait
/// for it: that wait would never end. Such an action is deferred instead
/// (see ``Holding``) and runs right after the handler, in the handler's
/// task; ``mutate(reporting:_:)`` drains them before it returns.
final class StoreCell<Model: Sendable>: Sendable {
    private let value: KarcMutex<Model>
    private let lock = AsyncLock()
    /// An actor model, which never changes: read without the mutex, whose
    /// generic type costs a metadata lookup on every read (three per send).
    private let actor: ActorBox?

    /// The model when it is an actor (immutable, and `Sendable` as every model is).
    // Proof for @unchecked: `object` is a `let` holding a `Sendable` model (an actor).
    private final class ActorBox: @unchecked Sendable {
        let object: AnyObject
        init(_ object: AnyObject) { self.object = object }
    }

    init(_ model: Model) {
        value = KarcMutex(model)
        actor = Model.self is AnyObject.Type ? ActorBox(model as AnyObject) : nil
    }

    var current: Model {
        // Proof for `unsafeBitCast`: `actor` is set only when `Model` is a class type, to the model itself.
        if let actor { return unsafeBitCast(actor.object, to: Model.self) }
        return value.withLock { $0 }
    }

    /// Runs `body` on the value alone and reports the change it made; changes
    /// are kept even when it throws. Then runs what the body sent back to this
    /// cell, in send order; the first of those that throws stops the rest and
    /// its error is thrown.
    func mutate(
        reporting report: StateReport, link: TraceLink? = nil, _ body: @escaping @Sendable (inout Model) async throws -> Void
    ) async throws {
        if deferredWhileHeld({ try await self.mutate(reporting: report, link: link, body) }) { return }
        let holding = Holding(cell: ObjectIdentifier(self), outer: Holding.current)
        do {
            try await report.around(link: link) {
                try await lock.withLock {
                    var model = self.value.withLock { $0 }
                    defer { self.value.withLock { [model] in $0 = model } }
                    try await Holding.$current.withValue(holding) { try await body(&model) }
                }
            }
        } catch {
            // The sends the body made before it threw still run (they were
            // accepted, as they would have run at once on an actor model); the
            // body's error came first, so it is the one thrown.
            try? await holding.drain()
            throw error
        }
        try await holding.drain()
    }
}

extension StoreCell {
    /// Whether this task holds the cell (a handler of this store sent back to
    /// it): then `run` is kept to run after that handler, and true is returned.
    private func deferredWhileHeld(_ run: @escaping @Sendable () async throws -> Void) -> Bool {
        Holding.current?.find(ObjectIdentifier(self))?.defer(run) ?? false
    }

    /// Runs a handler that cannot suspend on the value where it lies, under
    /// the cell's mutex: the value is not copied (a copy taken out of the
    /// mutex would share its storage, and the first write would copy all of
    /// it; a 10,000-element state paid that on every send). Waits its turn
    /// behind handlers that can suspend; an observer still gets the old
    /// state, which costs what a change of shared storage costs.
    func mutateInPlace(
        reporting report: StateReport, link: TraceLink? = nil, _ body: @escaping @Sendable (inout Model) throws -> Void
    ) async throws {
        if deferredWhileHeld({ try await self.mutateInPlace(reporting: report, link: link, body) }) { return }
        try await report.around(link: link) {
            try await lock.withLock {
                try self.value.withLock { try body(&$0) }
            }
        }
    }
}

/// The value-store cells the current task holds, innermost first, each with
/// the actions sent back to it while it is held.
///
/// A task-local, so child tasks (a concurrent group's services) and tasks a
/// handler starts see it too. A task that finds the cell after its holder
/// has drained it (an unawaited send from a task the handler started) waits
/// for the cell as any other sender does.
final class Holding: Sendable {
    @TaskLocal static var current: Holding?

    let cell: ObjectIdentifier
    let outer: Holding?
    /// `nil` once drained: nothing more is deferred to it.
    private let deferred = KarcMutex<[@Sendable () async throws -> Void]?>([])

    init(cell: ObjectIdentifier, outer: Holding?) {
        self.cell = cell
        self.outer = outer
    }

    /// The holding of `cell` in this chain, if the task holds it.
    func find(_ cell: ObjectIdentifier) -> Holding? {
        var holding: Holding? = self
        while let h = holding {
            if h.cell == cell { return h }
            holding = h.outer
        }
        return nil
    }

    /// Keeps `run` for after the holder; `false` when the holder has finished.
    func `defer`(_ run: @escaping @Sendable () async throws -> Void) -> Bool {
        deferred.withLock { runs in
            guard runs != nil else { return false }
            runs?.append(run)
            return true
        }
    }

    /// Runs what was deferred, in order, until nothing is left, then closes.
    func drain() async throws {
        while true {
            let next = deferred.withLock { runs -> (@Sendable () async throws -> Void)? in
                guard let first = runs?.first else {
                    runs = nil
                    return nil
                }
                runs?.removeFirst()
                return first
            }
            guard let next else { return }
            do {
                try await next()
            } catch {
                deferred.withLock { $0 = nil }
                throw error
            }
        }
    }
}
