/// What a service sees of its ancestors while the tree is built.
struct BuildContext: Sendable {
    let cluster: Cluster
    var environment: EnvironmentValues
    var serial = false
    var models: [ObjectIdentifier: any Sendable] = [:]
    /// Child indexes from the root, for error messages: `root.0.2`.
    var path: [Int] = []
    /// Set by `.named(_:)` for the next target below.
    var name: String?
    /// Set by `.invariant(_:_:)` for the next target below.
    var invariants: [Invariant] = []

    func child(_ index: Int) -> BuildContext {
        var context = self
        context.path.append(index)
        return context
    }

    /// The values a leaf built here binds while it runs: nil when no `.environment` above it set any.
    var boundEnvironment: EnvironmentValues? { environment.isCustomized ? environment : nil }

    var pathDescription: String { (["root"] + path.map(String.init)).joined(separator: ".") }
}
