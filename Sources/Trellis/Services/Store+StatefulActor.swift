import KarcAsync

extension Store where Model: Actor & StatefulModel {
    /// Handles actions of type `A` (a concrete type, a protocol or an enum)
    /// on the model actor: the handler is isolated to it, so it calls the
    /// model without `await` and no other handler runs between its steps
    /// (until it suspends).
    ///
    /// The same as the form for any actor; for one that shows its state, the
    /// state an observer is told about is read on the model, around the
    /// handler, with no closure between. Built with cross-module optimization
    /// (`-cross-module-optimization`, as `make bench` builds), the app's
    /// module specializes it for its model and both reads become direct;
    /// otherwise each is a call through ``StatefulModel/state``, an async
    /// call: a switch of executor in and one back.
    public func mutate<A: Sendable>(on _: A.Type, _ handler: @escaping @Sendable (isolated Model, A, Send) async throws -> Void) -> Store {
        // The any-actor form's runs, written out again: sharing them would pass `performShowing` as a
        // function value, and a call of one is followed by a switch back to the caller's executor.
        adding(
            StoreHandler(actionType: A.self, accepts: { $0 is A }) { cell, send, report in
                StoreLeafRuns(
                    run: { action in
                        if let action = action as? A { try await Self.performShowing(on: cell.current, action, send, report, nil, handler) }
                        return ServiceResult()
                    },
                    runLinked: { action, link in
                        if let action = action as? A {
                            try await Self.performShowing(on: cell.current, action, send.linked(link), report, link, handler)
                        }
                        return ServiceResult()
                    })
            })
    }

    /// One hop onto the model for the handler and both state reads around it:
    /// ``StateReader``'s watch of a ``StatefulModel`` written out on the model.
    private static func performShowing<A>(
        on model: isolated Model, _ action: A, _ send: Send, _ report: StateReport, _ link: TraceLink?,
        _ handler: @Sendable (isolated Model, A, Send) async throws -> Void
    ) async throws {
        let hub = report.hub
        guard hub.hasSubscribers else { return try await handler(model, action, send) }
        let source = report.source
        var failure: (any Error)?
        // Without the old state, the change is made where the state lies (see `OldStateDemand`).
        guard hub.oldStates.isNeeded(by: source) else {
            do { try await handler(model, action, send) } catch { failure = error }
            if hub.hasSubscribers { hub.publish(.stateChanged(source: source, old: StateNotKept(), new: await model.state), unbound: link) }
            if let failure { throw failure }
            return
        }
        let old = await model.state
        do { try await handler(model, action, send) } catch { failure = error }
        if hub.hasSubscribers {
            let new = await model.state
            if old != new {
                hub.publish(.stateChanged(source: source, old: old, new: new), unbound: link)
                hub.oldStates.wasReported(by: source)
            }
        }
        if let failure { throw failure }
    }
}
