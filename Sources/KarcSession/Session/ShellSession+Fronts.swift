import KarcOutput

extension ShellSession {
    /// From now on `front` is told every event this session says. Call it
    /// from the task that runs the session, between commands.
    package func subscribe(_ front: any SessionFront) -> FrontSubscription {
        renderer.subscribe(front)
    }

    /// The front of `subscription` is told nothing more.
    package func unsubscribe(_ subscription: FrontSubscription) {
        renderer.unsubscribe(subscription)
    }
}
