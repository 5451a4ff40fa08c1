import KarcAsync

/// One thing that happened in a cluster, as its observers see it: what
/// happened (``kind-swift.property``) and where it sits in its causal trace
/// (``link``).
///
/// ```swift
/// for await record in cluster.observe() {
///     if case .stateChanged(let source, _, let new) = record.kind, let link = record.link {
///         print("\(source) is now \(new), in trace \(link.trace)")
///     }
/// }
/// ```
public struct ClusterRecord: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// An action entered the cluster (through `send`, a flow, a redirect or an emitter);
        /// `sequence` counts from 1; `target` takes it (several: their names
        /// joined by `,`; nil when none does). A name, not a list: a short
        /// string is stored in place, so a record shares no object with the
        /// next (observers on another core would contend for its count).
        case sent(sequence: UInt64, action: any Sendable, target: String?)
        /// The answer to the send `sequence` (a model's duplex reply, say); only when there is one.
        case replied(sequence: UInt64, reply: any Sendable)
        /// The send `sequence` was handled and had no reply (its follow-up flows
        /// come next); only for a traced send (one with a ``ClusterRecord/link``),
        /// whose time it ends.
        case handled(sequence: UInt64)
        /// A middleware (`by`, its type name) replaced `action`, the send
        /// `sequence`, with the actions `to`, which follow as sends of their own.
        case redirected(sequence: UInt64, action: any Sendable, by: String, to: [any Sendable])
        /// The send `sequence` failed; sequence 0 when an emitter's sequence itself threw, or a
        /// mounted model's pipe did (``ModelPipeFailure``, in the trace of the work that failed).
        case failed(sequence: UInt64, error: any Error)
        /// A model emitted an event; `source` names the target (or submodel).
        case emitted(source: String, event: any Sendable)
        /// The state of `source` changed.
        case stateChanged(source: String, old: any Sendable, new: any Sendable)
        /// The observer fell behind and `count` records were dropped here (the oldest first).
        case lost(count: Int)
    }

    /// What happened.
    public let kind: Kind
    /// Its link and time, in place: a traced record costs no allocation (one
    /// is made on the sender's core and freed on the observer's, where each
    /// object of its own took malloc's slow path), and an untraced one is its
    /// kind and a few zero words.
    private let stamp: Stamp

    /// Plain words, no optionals: copying a record's stamp is a copy of
    /// bytes, with no value witness called for an optional's tag.
    fileprivate struct Stamp: Sendable {
        static let linked: UInt8 = 1, parented: UInt8 = 2, rootOnly: UInt8 = 4
        /// Made in place, not a global's copy (an untraced send's records take this path).
        static var none: Stamp { Stamp(trace: 0, span: 0, parent: 0, time: .none, origin: .none, flags: 0) }

        let trace: UInt64
        let span: UInt64
        let parent: UInt64
        let time: TraceTime
        let origin: TraceOrigin
        let flags: UInt8

        var link: TraceLink? {
            guard flags & Stamp.linked != 0 else { return nil }
            if flags & Stamp.rootOnly != 0 { return TraceLink.rootOnly(span: span, origin: origin) }
            return TraceLink(trace: trace, span: span, parent: flags & Stamp.parented != 0 ? parent : nil, traceOrigin: origin, rootOnly: false)
        }
    }

    /// The span that did it: a `sent` record's is the send's own span (its
    /// parent is the send that caused it), any other record's is the span of
    /// the work it came from; for work under a root nobody draws a tree of,
    /// the root's (`TraceLink.isRootOnly`). `nil` while no observer traces
    /// (``Cluster/observe(bufferSize:tracing:)``) and no app's tracer is set,
    /// for ``Kind-swift.enum/lost(count:)``, and for work outside any trace (a
    /// state read, a model set up by hand).
    public var link: TraceLink? { stamp.link }
    /// When it happened, on a traced record (one with a full ``link``): how long a
    /// send took is the time from its `sent` record to its `replied`,
    /// `handled`, `redirected` or `failed` one.
    public var time: ContinuousClock.Instant? { stamp.time.instant }

    /// ``time`` as plain words, for an observer that passes it on.
    package var traceTime: TraceTime { stamp.time }

    /// A record of `kind` made by the span `link` at `time`.
    public init(_ kind: Kind, link: TraceLink?, time: ContinuousClock.Instant? = nil) {
        self.init(kind, link: link, stamped: TraceTime(time))
    }

    /// A record of `kind` made by the work of `link`: timed now when the link
    /// is full (its time ends or starts a span), untimed for a root-only
    /// link (nobody draws its tree), untraced without one.
    init(_ kind: consuming Kind, by link: TraceLink?) {
        self.init(kind, link: link, stamped: link?.isRootOnly == false ? .now : .none)
    }

    private init(_ kind: consuming Kind, link: TraceLink?, stamped time: TraceTime) {
        self.kind = kind
        guard let link else {
            self.stamp = .none
            return
        }
        self.stamp = Stamp(link: link, time: time)
    }

    /// An untraced record of `kind`.
    init(_ kind: consuming Kind) {
        self.kind = kind
        self.stamp = .none
    }

    /// What is left where a record was moved out of a variable
    /// (`RecordLog.append(moving:)`): no payload, so destroying it is free.
    static var vacant: ClusterRecord { ClusterRecord(.lost(count: 0)) }
}

extension ClusterRecord.Stamp {
    /// In an extension, so the struct keeps its memberwise initializer.
    init(link: TraceLink, time: TraceTime) {
        let parented = link.parent == nil ? 0 : Self.parented
        self.init(
            trace: link.trace, span: link.span, parent: link.parent ?? 0, time: time, origin: link.traceOrigin,
            flags: Self.linked | parented | (link.isRootOnly ? Self.rootOnly : 0))
    }
}
