import KarcAsync

/// Something that happened in the cluster, as the shell prints it or
/// traces it: what (``kind-swift.property``), the span that did it
/// (``link``, its place in a causal trace) and when.
public struct ShellRecord: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// `source` emitted `event`.
        case event(source: String, event: any Sendable)
        /// The state of `target` went from `old` to `new`.
        case stateChanged(target: String, old: any Sendable, new: any Sendable)
        /// The state of `target` is now `state`, and the cluster kept no state
        /// from before the change: the shell compares it with the last state it
        /// printed. A cluster whose targets change their state in place (a long
        /// list appended to) reports this way so that nothing holds the old state.
        case stateReported(target: String, state: any Sendable)
        /// A middleware (`by`) replaced `action` with `to` (an action blocked or postponed).
        case redirected(by: String, action: any Sendable, to: [any Sendable])
        /// Work not started by a shell command failed (an emitter, a timer).
        case failed(error: any Error)
        /// The shell fell behind and `count` records were dropped.
        case lost(count: Int)
        /// `action` entered the cluster, for `target` (several joined by `,`;
        /// nil: none): a span begins (the shell's own command or one it
        /// caused). Traced, not printed.
        case sent(action: any Sendable, target: String?)
        /// The span's send answered `reply`. Traced, not printed (the shell prints its command's reply itself).
        case replied(reply: any Sendable)
        /// The span's send was handled, with no reply. Traced, not printed.
        case handled
        /// The span's send failed with `error` (one a handler caught, say). Traced, not printed.
        case sendFailed(error: any Error)

        /// Whether it only tells a trace something (a span began or ended) and is not printed.
        public var isHop: Bool {
            switch self {
            case .sent, .replied, .handled, .sendFailed: true
            default: false
            }
        }
    }

    /// What happened.
    public var kind: Kind
    /// The span that did it, when the cluster traces (``SendingShellCluster/send(_:to:span:)``).
    public var link: TraceLink?
    /// When it happened, when the cluster says.
    public var time: ContinuousClock.Instant? {
        get { traceTime.instant }
        set { traceTime = TraceTime(newValue) }
    }
    /// ``time`` as plain words: a record is copied on every batch a shell takes.
    package var traceTime: TraceTime

    /// A record of `kind`, made by the span `link` at `time`.
    public init(_ kind: Kind, link: TraceLink? = nil, time: ContinuousClock.Instant? = nil) {
        self.init(kind, link: link, traceTime: TraceTime(time))
    }

    /// A record of `kind`, made by the span `link` at `traceTime`.
    package init(_ kind: Kind, link: TraceLink?, traceTime: TraceTime) {
        self.kind = kind
        self.link = link
        self.traceTime = traceTime
    }

    /// `source` emitted `event`.
    public static func event(source: String, event: any Sendable) -> ShellRecord { ShellRecord(.event(source: source, event: event)) }
    /// The state of `target` went from `old` to `new`.
    public static func stateChanged(target: String, old: any Sendable, new: any Sendable) -> ShellRecord {
        ShellRecord(.stateChanged(target: target, old: old, new: new))
    }
    /// The state of `target` is now `state` (the cluster kept none from before).
    public static func stateReported(target: String, state: any Sendable) -> ShellRecord {
        ShellRecord(.stateReported(target: target, state: state))
    }
    /// A middleware (`by`) replaced `action` with `to`.
    public static func redirected(by: String, action: any Sendable, to: [any Sendable]) -> ShellRecord {
        ShellRecord(.redirected(by: by, action: action, to: to))
    }
    /// Work not started by a shell command failed.
    public static func failed(error: any Error) -> ShellRecord { ShellRecord(.failed(error: error)) }
    /// The shell fell behind and `count` records were dropped.
    public static func lost(count: Int) -> ShellRecord { ShellRecord(.lost(count: count)) }
}
