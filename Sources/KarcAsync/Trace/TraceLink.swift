import ServiceContextModule
import Synchronization

/// Where one piece of work sits in a causal trace: the trace it belongs to,
/// its own span, and the span that caused it.
///
/// A send is a span. A send made while another is handled (by a handler, a
/// middleware's redirect, a flow, a pipe answering a command, a dispatcher
/// action, an emitter) is its child, in the same trace. Work nobody's send
/// caused (a timer firing, an emitter fed from outside) starts a trace of
/// its own, whose ``origin`` names it.
///
/// The link travels in a task-local value of its own (a typed value: binding
/// it allocates nothing on the heap, where a `ServiceContext` is a dictionary
/// copied and a box for every send), and wherever the library hands work to
/// another task (a gate, an event, a queue) a ``TraceCarrier`` takes it, with
/// the task's `ServiceContext`, along. With an app's tracer bootstrapped the
/// link is in the tracer's `ServiceContext` too, so a context the app carries
/// itself keeps it.
///
/// A link is **full** (the span of one send, with its time on each record)
/// for work an observer draws trees of, or **a root's** (``isRootOnly``):
/// every record of the trace carries the root's ids and no time, what a
/// shell needs to say who started a change (`the app: counter.increment`),
/// made by the root's send and given to what a store runs for it, not bound.
public struct TraceLink: Sendable, Hashable {
    /// The trace: the id of its root span.
    public let trace: UInt64
    /// This span's id, unique in the process.
    public let span: UInt64
    /// The span that caused this one; `nil` on a root.
    public let parent: UInt64?
    /// What started the trace when its root is not a send (`timer counter|main|tick`,
    /// `emitter clock`); `nil` when a send did, which its own record names.
    public var origin: String? { traceOrigin.name }
    /// ``origin`` as it travels: a number (``TraceOrigin``), so a link holds no reference.
    package let traceOrigin: TraceOrigin
    /// Whether this link is its trace's root's, carried by all the work under
    /// it (no span of its own): the work of a root nobody draws a tree of.
    public let isRootOnly: Bool

    /// A link; most code gets one from the runtime instead.
    public init(trace: UInt64, span: UInt64, parent: UInt64?, origin: String? = nil) {
        self.init(trace: trace, span: span, parent: parent, origin: origin, rootOnly: false)
    }

    init(trace: UInt64, span: UInt64, parent: UInt64?, origin: String?, rootOnly: Bool) {
        self.init(trace: trace, span: span, parent: parent, traceOrigin: TraceOrigin(origin), rootOnly: rootOnly)
    }

    package init(trace: UInt64, span: UInt64, parent: UInt64?, traceOrigin: TraceOrigin, rootOnly: Bool) {
        self.trace = trace
        self.span = span
        self.parent = parent
        self.traceOrigin = traceOrigin
        self.isRootOnly = rootOnly
    }

    /// The root `span` of a trace of its own, carried whole by the work under it (``isRootOnly``).
    package static func rootOnly(span: UInt64, origin: TraceOrigin) -> TraceLink {
        TraceLink(trace: span, span: span, parent: nil, traceOrigin: origin, rootOnly: true)
    }

    /// Whether this span is its trace's root.
    public var isRoot: Bool { parent == nil }

    /// The link of the work running now, if it is traced.
    package static var current: TraceLink? { TraceLocal.link }

    /// ``current``, else the link in the task's `ServiceContext`: where an
    /// app's tracer is set, a context the app carried itself holds one.
    package static var currentOrCarried: TraceLink? { TraceLocal.link ?? ServiceContext.current?.traceLink }

    /// A new span id, unique in the process (never 0).
    package static func newSpanID() -> UInt64 {
        ids.add(1, ordering: .relaxed).newValue
    }

    private static let ids = Atomic<UInt64>(0)

    /// The span `span`, a child of `parent`, or a root named `origin` when there is none.
    package static func child(of parent: TraceLink?, span: UInt64, origin: @autoclosure () -> String? = nil) -> TraceLink {
        guard let parent else { return TraceLink(trace: span, span: span, parent: nil, origin: origin()) }
        return TraceLink(trace: parent.trace, span: span, parent: parent.span, traceOrigin: parent.traceOrigin, rootOnly: false)
    }

    /// The span `span`, a child of the span current now (or a root named
    /// `origin`), and the task's `ServiceContext` with it in place of that
    /// one: what an app's tracer is given.
    package static func childContext(span: UInt64, origin: String?) -> (TraceLink, ServiceContext) {
        var context = ServiceContext.current ?? .topLevel
        let link = child(of: currentOrCarried, span: span, origin: origin)
        context.traceLink = link
        return (link, context)
    }

    /// Runs `body` with `link` current, or as it is when there is none.
    ///
    /// SPI, not `package`: a `package` generic is never specialized in the
    /// module that calls it, even `@inlinable` (Swift 6.3), and this one runs
    /// on every traced send (docs/performance.md, "Traces").
    @_spi(KarcInternal) @inlinable
    public static func bound<T>(
        _ link: TraceLink?, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        guard let link else { return try await body() }
        return try await TraceLocal.slot.withValue(link, operation: body, isolation: isolation)
    }

    /// Runs `body` with this link current (SPI and inlinable as ``bound(_:isolation:_:)`` is).
    @_spi(KarcInternal) @inlinable
    public func whileCurrent<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        try await TraceLocal.slot.withValue(self, operation: body, isolation: isolation)
    }
}

/// Where the link of the work running now lives.
@usableFromInline
enum TraceLocal {
    /// The task-local itself, written out rather than `@TaskLocal` (whose
    /// `$link` cannot be named in inlinable code): its binding is inlined into
    /// the modules that bind it (``TraceLink/bound(_:isolation:_:)``).
    @usableFromInline static let slot = TaskLocal<TraceLink?>(wrappedValue: nil)
    static var link: TraceLink? { slot.get() }
}

extension ServiceContext {
    /// The karc span of the work this context belongs to.
    package var traceLink: TraceLink? {
        get { self[TraceLinkKey.self] }
        set { self[TraceLinkKey.self] = newValue }
    }
}

private enum TraceLinkKey: ServiceContextKey {
    typealias Value = TraceLink
    static var nameOverride: String? { "karc.trace" }
}
