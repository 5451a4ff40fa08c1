@_spi(KarcInternal) import KarcAsync
import Tracing

extension Cluster {
    /// Routes `action` by its type through the middlewares to every service
    /// that accepts it, and returns when all of them have finished: the first
    /// reply (a model's duplex answer, say), or `nil`. Follow-up flows the
    /// services return are sent next, before `send` returns.
    ///
    /// - Throws: the first error a middleware's `pre` or a service threw
    ///   (unless a `transformError` above it turned the error into an action
    ///   that succeeded), or ``TrellisError/unhandledAction(type:)`` when no
    ///   service takes this type and no middleware redirected it.
    @discardableResult
    public func send(action: any Sendable) async throws -> (any Sendable)? {
        // Checked before any closure: one on the way cost a tenth of an unobserved store send.
        guard pool.needsMakingCurrent else { return try await process(action, through: nil, redirected: false) }
        return try await pool.makeCurrent { try await process(action, through: nil, redirected: false) }
    }

    /// Sends `action` to the target named `target` only (as the shell does
    /// with `target.command`): the middlewares see it as usual, but of the
    /// services only that target's handle it. Follow-ups and redirects go
    /// to the whole cluster.
    ///
    /// - Throws: ``TrellisError/unknownTarget(name:targets:)`` when no target
    ///   has that name, ``TrellisError/unhandledAction(type:)`` when it does
    ///   not accept the action's type; else as ``send(action:)``.
    @discardableResult
    public func send(action: any Sendable, to target: String) async throws -> (any Sendable)? {
        guard self.target(named: target) != nil else {
            throw TrellisError.unknownTarget(name: target, targets: targets.map(\.name))
        }
        guard pool.needsMakingCurrent else { return try await process(action, through: nil, redirected: false, target: target) }
        return try await pool.makeCurrent { try await process(action, through: nil, redirected: false, target: target) }
    }

    /// ``send(action:to:)`` as the span `span`: the root of a trace, unless
    /// a span is current. Tooling that must know a send's trace before its
    /// records come (the shell) picks the id with `TraceLink.newSpanID()`.
    package func send(action: any Sendable, to target: String, span: UInt64) async throws -> (any Sendable)? {
        guard self.target(named: target) != nil else {
            throw TrellisError.unknownTarget(name: target, targets: targets.map(\.name))
        }
        guard pool.needsMakingCurrent else { return try await process(action, through: nil, redirected: false, target: target, span: span) }
        return try await pool.makeCurrent { try await process(action, through: nil, redirected: false, target: target, span: span) }
    }

    /// Sends `action` from code that cannot await (callbacks, legacy code)
    /// and calls `completion` with the reply or the error.
    ///
    /// Sends made this way run one after another, in the order of the calls,
    /// so `send(a) { … }; send(b) { … }` processes `a` before `b`; from async
    /// code, ``send(action:)`` sends concurrently. `completion` runs on no
    /// particular thread. The send is work in flight from the call (so
    /// ``settled(timeout:)`` waits for it) and belongs to the caller's trace.
    public func send(action: any Sendable, completion: @escaping @Sendable (Result<(any Sendable)?, any Error>) -> Void) {
        // The queue's task was started by whoever sent first: each send takes its caller's dependencies
        // and trace along.
        let dependencies = DependencyRepository.current
        let carried = TraceCarrier.current
        // Work in flight from the call: `settled()` waits for a send still in the queue.
        activity.enter()
        callbackSends.append { [self] in
            defer { activity.leave() }
            do {
                let reply = try await carried.run {
                    try await DependencyRepository.$current.withValue(dependencies) { try await send(action: action) }
                }
                completion(.success(reply))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// The last actions the cluster processed, oldest first, with what became
    /// of each; at most the history capacity given to ``Bootstrap(historyCapacity:_:)``.
    public var history: [HistoryEntry] { actionHistory.withLock { $0.ordered } }

    /// Forgets the history.
    public func clearHistory() { actionHistory.withLock { $0.clear() } }

    /// One action through middlewares and services. Actions of a redirect skip
    /// `pre` (`redirected`); `subtree` limits the services to an emitter's.
    ///
    /// The action is a span: a child of the span running now (the send whose
    /// handler sent it), else the root of a trace (`span` names it, when the
    /// caller chose the id), while an observer traces, an app's tracer is
    /// set, or the caller chose the span; the work under such a span is
    /// traced in full too, its link bound in the task (what a handler's own
    /// code carries, `TraceCarrier.current`, holds it). While an observer
    /// wants only roots (a shell saying who made a change), a root's link
    /// (`TraceLink.isRootOnly`) is made, which the work under it carries as
    /// it is: made here and *given*, not bound (`unbound`), to the send's own
    /// records, a store's handler, its reports and its sends (`Send` binds it
    /// only when the handler sends), its redirects and flows, and bound only
    /// for the rest (another kind of service, a middleware): binding it for
    /// every send cost an observed store send a third. So a store handler's
    /// own code that carries the trace elsewhere (`TraceCarrier.current`, a
    /// callback send) starts a root of its own there. Else nothing is made.
    /// A root that is not a caller's send (an emitter's action) is named by
    /// `origin`. `link` is given only by this function's own paths: bound in
    /// the task, unless `unbound`.
    ///
    /// It and everything between it and a handler run on the caller's
    /// executor (`nonisolated(nonsending)`), which is the global one for the
    /// public sends: each `nonisolated` async call on the way was a switch
    /// of executor, and a switch costs a locked read of the task's status.
    nonisolated(nonsending) func process(
        _ action: any Sendable, through subtree: ServiceNode?, redirected: Bool, target: String? = nil, span: UInt64? = nil,
        origin: String? = nil, link: TraceLink? = nil, unbound: Bool = false
    ) async throws -> (any Sendable)? {
        // One function, not a tracing wrapper around a handler: an async call more is a frame allocated
        // and freed per send, a tenth of an unobserved store send.
        // A root-only link is taken in this frame: a call more was a hop more (an async call a send).
        var (link, unbound) = (link, unbound)
        if link == nil, hasTracer || span != nil || hub.wantsLinks {
            // The link running now, read once; a root's is carried as it is.
            let current = hasTracer ? TraceLink.currentOrCarried : TraceLink.current
            if hasTracer || span != nil || hub.wantsTraces || current?.isRootOnly == false {
                // A span of its own, bound: the work under it is traced in full.
                let span = span ?? TraceLink.newSpanID()
                guard hasTracer, let tracer else {
                    // A child of the link read above, bound here: no second read, no frame more between the two sends.
                    let link = TraceLink.child(of: current, span: span, origin: origin)
                    return try await link.whileCurrent {
                        try await process(action, through: subtree, redirected: redirected, target: target, link: link)
                    }
                }
                return try await traced(action, through: subtree, redirected: redirected, target: target, span: span, origin: origin, by: tracer)
            }
            (link, unbound) = current.map { ($0, false) } ?? (TraceLink.rootOnly(span: TraceLink.newSpanID(), origin: TraceOrigin(origin)), true)
        }
        // The link as given (not bound): what a store's handler takes, and what is bound for the rest.
        let given = unbound ? link : nil
        // A root-only link is the work's under it as it is: its redirects and flows go on with it.
        let carried = link?.isRootOnly == true ? link : nil
        let sequence = self.sequence.add(1, ordering: .relaxed).newValue
        activity.enter()
        defer { activity.leave() }
        var middlewares: [MiddlewareBox] = []
        var redirect: (by: String, to: [any Sendable])?
        var result = ServiceResult()
        var sentPublished = false
        do {
            let plan = try self.plan(for: action, through: subtree, target: target)
            // Built only for someone: an unobserved send makes no record at all.
            if hub.hasSubscribers { hub.publish(ClusterRecord(.sent(sequence: sequence, action: action, target: plan.target), by: link)) }
            sentPublished = true
            middlewares = plan.middlewares
            if !redirected {
                for middleware in middlewares {
                    if let flow = try await TraceLink.bound(given, { try await middleware.pre(action) }) {
                        redirect = (middleware.name, flow)
                        break
                    }
                }
            }
            if redirect == nil {
                if let node = plan.node {
                    result = try await node.execute(action, in: self, unbound: given)
                } else if action is ResetCluster {
                    try await TraceLink.bound(given) { try await reset() }
                } else {
                    throw TrellisError.unhandledAction(type: "\(type(of: action))")
                }
            }
        } catch {
            if !sentPublished, hub.hasSubscribers { hub.publish(ClusterRecord(.sent(sequence: sequence, action: action, target: nil), by: link)) }
            for middleware in middlewares { await TraceLink.bound(given) { await middleware.failure(action, error) } }
            remember(sequence, action, .failed(error))
            if hub.hasSubscribers { hub.publish(ClusterRecord(.failed(sequence: sequence, error: error), by: link)) }
            throw error
        }
        if let redirect {
            remember(sequence, action, .redirected(by: redirect.by, to: redirect.to))
            if hub.hasSubscribers {
                hub.publish(ClusterRecord(.redirected(sequence: sequence, action: action, by: redirect.by, to: redirect.to), by: link))
            }
            for next in redirect.to { _ = try await process(next, through: nil, redirected: true, link: carried, unbound: unbound) }
            return nil
        }
        for middleware in middlewares { await TraceLink.bound(given) { await middleware.post(action) } }
        remember(sequence, action, .handled)
        var reply: (any Sendable)?
        if let answer = result.reply, !(answer is Void) {
            if hub.hasSubscribers { hub.publish(ClusterRecord(.replied(sequence: sequence, reply: answer), by: link)) }
            reply = answer
        } else if let link, !link.isRootOnly, hub.hasSubscribers {
            // Only a traced send's end is told: it ends the send's time.
            hub.publish(ClusterRecord(.handled(sequence: sequence), by: link))
        }
        for flow in result.flows {
            for next in flow { _ = try await process(next, through: nil, redirected: false, link: carried, unbound: unbound) }
        }
        return reply
    }

    /// ``process(_:through:redirected:target:span:origin:link:)`` as the
    /// span `span`, current, and as a span of the app's tracer.
    private func traced(
        _ action: any Sendable, through subtree: ServiceNode?, redirected: Bool, target: String?, span: UInt64, origin: String?,
        by tracer: any Tracer
    ) async throws -> (any Sendable)? {
        let (link, context) = TraceLink.childContext(span: span, origin: origin)
        let type = "\(Swift.type(of: action))"
        let targets = target ?? (try? plan(for: action, through: subtree, target: nil))?.target
        let name = targets.map { "\($0).\(type)" } ?? type
        return try await tracer.withSpan(name, context: context, ofKind: .internal) { span in
            span.attributes["karc.action"] = type
            span.attributes["karc.targets"] = targets ?? ""
            span.attributes["karc.trace"] = "\(link.trace)"
            span.attributes["karc.span"] = "\(link.span)"
            do {
                // Bound where the library looks for it first (the context holds it too, for a context the app carries).
                let reply = try await link.whileCurrent {
                    try await process(action, through: subtree, redirected: redirected, target: target, link: link)
                }
                span.attributes["karc.outcome"] = reply == nil ? "handled" : "replied"
                return reply
            } catch {
                span.attributes["karc.outcome"] = "failed"
                throw error
            }
        }
    }

    private func remember(_ sequence: UInt64, _ action: any Sendable, _ outcome: HistoryEntry.Outcome) {
        actionHistory.withLock { $0.record(HistoryEntry(sequence: sequence, action: action, outcome: outcome)) }
    }

    private func plan(for action: any Sendable, through subtree: ServiceNode?, target: String?) throws -> Plan {
        let key = ObjectIdentifier(type(of: action))
        let cached = try routing.withLock { r -> Plan? in
            if r.isShutDown { throw TrellisError.shutDown }
            if let last = r.lastPlan, last.type == key { return last.plan }
            guard let plan = r.plans[key] else { return nil }
            r.lastPlan = (key, plan)
            return plan
        }
        let plan: Plan
        if let cached {
            plan = cached
        } else {
            // Pruned outside the lock; the type tests per action type run here, once.
            let (root, all) = routing.withLock { ($0.root, $0.middlewares) }
            plan = Plan(node: root?.pruned(for: action), middlewares: all.filter { $0.accepts(action) })
            routing.withLock { $0.plans[key] = plan }
        }
        if let target {
            let targeted = TargetedPlanKey(type: key, target: target)
            let known = routing.withLock { r -> Plan? in
                // A run of one command to one target skips hashing, as untargeted sends do.
                if let last = r.lastTargeted, last.key == targeted { return last.plan }
                guard let known = r.targetedPlans[targeted] else { return nil }
                r.lastTargeted = (targeted, known)
                return known
            }
            if let known { return known }
            let root = routing.withLock { $0.root }
            let targetedPlan = Plan(node: root?.pruned(for: action, target: target), middlewares: plan.middlewares)
            routing.withLock { $0.targetedPlans[targeted] = targetedPlan }
            return targetedPlan
        }
        guard let subtree else { return plan }
        return Plan(node: subtree.pruned(for: action), middlewares: plan.middlewares)
    }
}
