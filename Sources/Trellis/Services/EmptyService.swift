/// A service that does nothing; what an empty builder block produces.
public struct EmptyService: PrimitiveService {
    /// A service that does nothing.
    public init() {}
    func build(_ context: BuildContext) async throws -> ServiceNode { .children([], serial: false) }
}
