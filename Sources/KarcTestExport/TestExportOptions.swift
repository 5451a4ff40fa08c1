/// How a generated test makes its cluster and what it imports
/// (`--test-factory`, `--test-import`; `karc` sets the demo's).
public struct TestExportOptions: Sendable {
    /// An expression of a Trellis `Cluster`, with the store's `clock` in scope.
    public var factory: String?
    /// The modules that define the cluster and its types.
    public var imports: [String] = []

    /// How an exported test makes its cluster (`factory`) and what it imports.
    public init(factory: String? = nil, imports: [String] = []) {
        self.factory = factory
        self.imports = imports
    }

    /// These options with what the command line gave (`--test-factory`, `--test-import`) in place of theirs.
    package func overridden(factory: String?, imports: [String]) -> TestExportOptions {
        TestExportOptions(factory: factory ?? self.factory, imports: imports.isEmpty ? self.imports : imports)
    }
}
