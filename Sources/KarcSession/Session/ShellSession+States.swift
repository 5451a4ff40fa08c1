extension ShellSession {
    /// Each target's state now, in the catalog's order (those that show one).
    package func targetStates() async -> [(target: String, state: any Sendable)] {
        var states: [(target: String, state: any Sendable)] = []
        for target in cluster.catalog.targets {
            if let state = await cluster.state(of: target.name) { states.append((target.name, state)) }
        }
        return states
    }
}
