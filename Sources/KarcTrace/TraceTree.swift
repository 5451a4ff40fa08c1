import KarcAsync
import KarcRendering

/// A trace as a tree, one line a hop: each send (a span) with its outcome
/// and its time, and under it what it did (events, changes, redirects) and
/// the sends it caused, in the order they happened.
///
/// ```
/// identity.sign-in  → "signed in"  0.812 ms
///   state  identity
///   articles.load  ok  0.120 ms
///     state  articles
///   account.register  ok  0.301 ms
///     event  account: welcomeQueued  (late)
/// ```
///
/// Bounded for a runaway flow: past ``maxDepth`` levels a line says how
/// many hops lie deeper, and a trace that kept only its first hops says how
/// many it dropped.
package struct TraceTree {
    /// One line of the tree.
    package struct Line: Equatable {
        package enum Kind: String { case send, event, state, redirect, root, note }
        package let depth: Int
        package let kind: Kind
        package let text: String
        /// The hop's span and its parent (the span that caused it); nil on a note.
        package let span: UInt64?
        package let parent: UInt64?
        /// The index of the hop the line tells, in its recording; nil for lines that tell none.
        package let hop: Int?
        /// It came after the command that started the trace had ended.
        package let late: Bool
        /// How long the send took (a send's line).
        package let duration: Duration?
    }

    package let trace: UInt64
    package let lines: [Line]

    /// Levels shown; a runaway flow's deeper hops are counted.
    package static let maxDepth = 32
    /// Lines shown under one send; the rest (a handler that sent thousands) are counted.
    package static let maxItems = 100

    /// The tree of `recording`; `label` names a send (`articles.load`) from its action and targets.
    package init(_ recording: TraceBook.Recording, label: (any Sendable, String?) -> String) {
        trace = recording.trace
        var lines: [Line] = []
        let hops = recording.hops
        // Each span: its `sent` hop, its end, and its items (hops it made, child spans) in order.
        var spans = Spans(hops)
        for (index, hop) in hops.enumerated() where hop.confirmed {
            let slot = spans.slot(of: hop.span)
            switch hop.kind {
            case .sent:
                if spans.sent[slot] == nil {
                    spans.sent[slot] = index
                    // A span whose parent never showed up here hangs from the root.
                    spans.append(index, under: hop.parent.flatMap(spans.slotIfKnown))
                }
            case .replied, .handled, .failed, .redirected:
                // How a send ended is told on its line; without its line, on a line of its own.
                if spans.sent[slot] != nil { spans.end[slot] = index } else { spans.append(index, under: slot) }
            default:
                spans.append(index, under: slot)
            }
        }
        func isLate(_ index: Int) -> Bool { recording.lateFrom.map { index >= $0 } ?? false }
        // Items of a span that never sent (a timer's root) hang from the root.
        // In the order their first hop came, so the tree reads the same every time.
        let rootless = spans.ids.indices.filter { spans.sent[$0] == nil && !spans.items[$0].isEmpty }
            .sorted { spans.items[$0][0] < spans.items[$1][0] }
        var counted = 0
        func countBelow(_ slot: Int?) -> Int {
            spans.items(under: slot).reduce(0) { total, index in
                if case .sent = hops[index].kind { return total + 1 + countBelow(spans.slot(of: hops[index].span)) }
                return total + 1
            }
        }
        func walk(_ slot: Int?, depth: Int) {
            let all = spans.items(under: slot)
            let rest = all.dropFirst(Self.maxItems).reduce(0) { total, index in
                total + 1 + (sentSpan(hops[index]) != nil ? countBelow(spans.slot(of: hops[index].span)) : 0)
            }
            defer {
                if rest > 0 {
                    lines.append(
                        Line(
                            depth: depth, kind: .note,
                            text: "… \(rest) more \(rest == 1 ? "hop" : "hops") here (at most \(Self.maxItems) lines under one send)",
                            span: nil, parent: nil, hop: nil, late: false, duration: nil))
                }
            }
            for index in all.prefix(Self.maxItems) {
                let hop = hops[index]
                if depth >= Self.maxDepth {
                    let deeper = 1 + (sentSpan(hop) != nil ? countBelow(spans.slot(of: hop.span)) : 0)
                    counted += deeper
                    continue
                }
                if case .sent(let action, let target) = hop.kind {
                    let slot = spans.slot(of: hop.span)
                    let end = spans.end[slot].map { hops[$0] }
                    var duration: Duration?
                    if let start = hop.time.instant, let finish = end?.time.instant { duration = finish - start }
                    var text = label(action, target) + "  " + Self.outcome(end)
                    if let duration { text += "  " + Milliseconds.text(duration) }
                    lines.append(
                        Line(
                            depth: depth, kind: .send, text: text, span: hop.span, parent: hop.parent, hop: index,
                            late: isLate(index), duration: duration))
                    walk(slot, depth: depth + 1)
                } else {
                    lines.append(
                        Line(
                            depth: depth, kind: Self.kind(hop), text: Self.text(hop, label: label), span: hop.span, parent: hop.parent,
                            hop: index, late: isLate(index), duration: nil))
                }
            }
            if depth == Self.maxDepth - 1, counted > 0 {
                lines.append(
                    Line(
                        depth: depth + 1, kind: .note,
                        text: "… \(counted) more \(counted == 1 ? "hop" : "hops") deeper than \(Self.maxDepth) levels (a runaway flow?)",
                        span: nil, parent: nil, hop: nil, late: false, duration: nil))
                counted = 0
            }
        }
        func sentSpan(_ hop: TraceBook.Hop) -> UInt64? {
            if case .sent = hop.kind { return hop.span }
            return nil
        }
        walk(nil, depth: 0)
        for slot in rootless {
            lines.append(
                Line(
                    depth: 0, kind: .root, text: recording.origin ?? "work nobody sent", span: spans.ids[slot], parent: nil, hop: nil,
                    late: isLate(spans.items[slot][0]), duration: nil))
            walk(slot, depth: 1)
        }
        if recording.omitted > 0 {
            lines.append(
                Line(
                    depth: 0, kind: .note,
                    text: "… \(recording.omitted) more \(recording.omitted == 1 ? "hop" : "hops") not kept (at most \(hops.count) a trace)",
                    span: nil,
                    parent: nil, hop: nil, late: false, duration: nil))
        }
        self.lines = lines
    }

    /// The spans of a recording, each a slot: its `sent` hop, its end and
    /// its items. One dictionary (span to slot) and arrays, as most traces
    /// have a span or two and a tree is built after every traced command.
    private struct Spans {
        private var slots: [UInt64: Int] = [:]
        package private(set) var ids: [UInt64] = []
        package var sent: [Int?] = []
        package var end: [Int?] = []
        /// Each slot's items, and the root's.
        package private(set) var items: [[Int]] = []
        private var rootItems: [Int] = []

        /// Every span of `hops` gets its slot first: a parent is known wherever it comes.
        package init(_ hops: [TraceBook.Hop]) {
            slots.reserveCapacity(4)
            for hop in hops where slots[hop.span] == nil {
                slots[hop.span] = ids.count
                ids.append(hop.span)
            }
            sent = Array(repeating: nil, count: ids.count)
            end = sent
            items = Array(repeating: [], count: ids.count)
        }

        // Every hop's span has a slot (`init`).
        package func slot(of span: UInt64) -> Int { slots[span] ?? 0 }

        /// The slot of a span that may not be in the recording (a parent that never showed up).
        package func slotIfKnown(_ span: UInt64) -> Int? { slots[span] }

        /// The items of `slot`, or the root's for nil.
        package func items(under slot: Int?) -> [Int] { slot.map { items[$0] } ?? rootItems }

        package mutating func append(_ index: Int, under slot: Int?) {
            if let slot { items[slot].append(index) } else { rootItems.append(index) }
        }
    }

    private static func outcome(_ end: TraceBook.Hop?) -> String {
        switch end?.kind {
        case .replied(let reply): "→ " + ValueText.inline(reply)
        case .handled: "ok"
        case .failed(let error): "failed: \(error)"
        case .redirected(let by, let to): redirect(by: by, to: to)
        default: "…"
        }
    }

    private static func redirect(by: String, to: [any Sendable]) -> String {
        "redirected by \(by) → " + (to.isEmpty ? "nothing" : to.map { ValueText.inline($0) }.joined(separator: ", "))
    }

    private static func kind(_ hop: TraceBook.Hop) -> Line.Kind {
        switch hop.kind {
        case .event: .event
        case .state: .state
        case .redirected: .redirect
        default: .send
        }
    }

    private static func text(_ hop: TraceBook.Hop, label: (any Sendable, String?) -> String) -> String {
        switch hop.kind {
        case .event(let source, let value): "event  \(source): \(ValueText.inline(value))"
        case .state(let target): "state  \(target)"
        case .redirected(let by, let to): redirect(by: by, to: to)
        case .replied(let reply): "→ " + ValueText.inline(reply)
        case .handled: "ok"
        case .failed(let error): "failed: \(error)"
        case .sent(let action, let target): label(action, target)
        }
    }
}
