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
/// The link travels in the task's `ServiceContext` (swift-service-context),
/// the carrier an app's tracer uses too, and wherever the library hands work
/// to another task (a gate, an event, a queue), the context goes with the work.
public struct TraceLink: Sendable, Hashable {
    /// The trace: the id of its root span.
    public let trace: UInt64
    /// This span's id, unique in the process.
    public let span: UInt64
    /// The span that caused this one; `nil` on a root.
    public let parent: UInt64?
    /// What started the trace when its root is not a send (`timer counter|main|tick`,
    /// `emitter clock`); `nil` when a send did, which its own record names.
    public let origin: String?

    /// A link; most code gets one from the runtime instead.
    public init(trace: UInt64, span: UInt64, parent: UInt64?, origin: String? = nil) {
        self.trace = trace
        self.span = span
        self.parent = parent
        self.origin = origin
    }

    /// Whether this span is its trace's root.
    public var isRoot: Bool { parent == nil }

    /// The link of the work running now, if it is traced.
    package static var current: TraceLink? { ServiceContext.current?.traceLink }

    /// A new span id, unique in the process (never 0).
    package static func newSpanID() -> UInt64 {
        ids.add(1, ordering: .relaxed).newValue
    }

    private static let ids = Atomic<UInt64>(0)

    /// The span `span`, a child of `parent`, or a root named `origin` when there is none.
    package static func child(of parent: TraceLink?, span: UInt64, origin: @autoclosure () -> String? = nil) -> TraceLink {
        guard let parent else { return TraceLink(trace: span, span: span, parent: nil, origin: origin()) }
        return TraceLink(trace: parent.trace, span: span, parent: parent.span, origin: parent.origin)
    }

    /// Runs `body` as the span `span` (given its link): a child of the span
    /// current now, or a root named `origin` when none is. The task's context
    /// is read once, where `child(of: .current, …)` and ``whileCurrent(isolation:_:)``
    /// read it twice: this is every traced send's path.
    package static func withChild<T>(
        span: UInt64, origin: String?, isolation: isolated (any Actor)? = #isolation, _ body: (TraceLink) async throws -> T
    ) async rethrows -> T {
        let (link, context) = childContext(span: span, origin: origin)
        return try await ServiceContext.$current.withValue(context, operation: { try await body(link) }, isolation: isolation)
    }

    /// The span `span`, a child of the span current now (or a root named
    /// `origin`), and the task's context with it in place of that one.
    package static func childContext(span: UInt64, origin: String?) -> (TraceLink, ServiceContext) {
        var context = ServiceContext.current ?? .topLevel
        let link = child(of: context.traceLink, span: span, origin: origin)
        context.traceLink = link
        return (link, context)
    }

    /// Runs `body` with this link current (added to the current `ServiceContext`).
    package func whileCurrent<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        var context = ServiceContext.current ?? .topLevel
        context.traceLink = self
        return try await ServiceContext.withCarried(context, isolation: isolation, body)
    }
}

extension ServiceContext {
    /// The karc span of the work this context belongs to.
    package var traceLink: TraceLink? {
        get { self[TraceLinkKey.self] }
        set { self[TraceLinkKey.self] = newValue }
    }

    /// Runs `body` with `context` current, or as it is when there is none: what
    /// the library does where it hands work to another task, with the context
    /// it took from the task that handed it over.
    package static func withCarried<T>(
        _ context: ServiceContext?, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        guard let context else { return try await body() }
        return try await ServiceContext.$current.withValue(context, operation: body, isolation: isolation)
    }
}

private enum TraceLinkKey: ServiceContextKey {
    typealias Value = TraceLink
    static var nameOverride: String? { "karc.trace" }
}
