import KarcAsync

/// What a cluster gives the models it mounts: a gauge of work in flight and a
/// monitor that hears every event and change of state.
///
/// Set as a task-local around `setUp`; a model's runtime reads it once, when it
/// is created. Submodels are set up from their parent's tasks and inherit it.
package struct ModelMount: Sendable {
    package let activity: ActivityGauge
    package let monitor: any ModelMonitor

    package init(activity: ActivityGauge, monitor: any ModelMonitor) {
        self.activity = activity
        self.monitor = monitor
    }

    @TaskLocal package static var current: ModelMount?
}

/// Hears what mounted models do, in the order they do it. Called with the
/// model's lock held: implementations must not block or call back into the model.
package protocol ModelMonitor: Sendable {
    func emitted(model: String, event: any Sendable)
    func stateChanged(model: String, old: any Sendable, new: any Sendable)
    /// What the cluster calls the model `model` (its target's name), for the traces its timers start.
    func name(of model: String) -> String
    /// A track of the pipe `pipe` (`pipeline.pipe`) of `model` threw `error`;
    /// `recovering`: the pipe goes on, else its pipeline restarts. Called in
    /// the work that failed (its trace link is the current one), not under the model's lock.
    func pipeFailed(model: String, pipe: String, error: any Error, recovering: Bool)
}
