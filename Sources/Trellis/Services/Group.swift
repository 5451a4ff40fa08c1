/// Passes actions to its children. Used to apply a modifier to several
/// services at once; it takes any number of children.
public struct Group: PrimitiveService {
    let children: [any Service]

    /// A group of the services `content` lists.
    public init(@ServiceBuilder _ content: () -> Group) {
        self = content()
    }

    init(children: [any Service]) { self.children = children }

    func build(_ context: BuildContext) async throws -> ServiceNode {
        var nodes: [ServiceNode] = []
        for (index, child) in children.enumerated() {
            nodes.append(try await buildService(child, context.child(index)))
        }
        return .children(nodes, serial: context.serial)
    }
}
