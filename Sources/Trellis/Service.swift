/// Something that reacts to actions: a ``Store``, a ``Group`` of services, a
/// mounted Karc model, or a service of your own whose ``body`` composes them.
///
/// ```swift
/// struct IdentityService: Service {
///     var body: some Service {
///         Store(model: IdentityModel.self)
///             .mutate(on: IdentityAction.self) { model, action, send in … }
///     }
/// }
/// ```
public protocol Service: Sendable {
    associatedtype Body: Service
    /// The services this one is made of; built once, at ``Bootstrap(_:)``.
    @ServiceBuilder var body: Body { get }
}

extension Never: Service {
    public typealias Body = Never
    // `return` opts out of the builder the requirement declares.
    public var body: Never { return fatalError("Never has no body") }
}

/// A service that builds itself (stores, groups, modifiers) instead of through a body.
protocol PrimitiveService: Service where Body == Never {
    func build(_ context: BuildContext) async throws -> ServiceNode
}

extension PrimitiveService {
    public var body: Never { return fatalError("\(Self.self) is built by the cluster, it has no body") }
}

/// Builds any service: primitives directly, the others through their body.
func buildService(_ service: any Service, _ context: BuildContext) async throws -> ServiceNode {
    if let primitive = service as? any PrimitiveService {
        return try await primitive.build(context)
    }
    if let receiving = service as? any ReceivingService {
        return receiving.buildLeaf(context)
    }
    return try await buildService(service.body, context)
}

/// A service that does nothing; what an empty builder block produces.
public struct EmptyService: PrimitiveService {
    public init() {}
    func build(_ context: BuildContext) async throws -> ServiceNode { .children([], serial: false) }
}

/// Passes actions to its children. Used to apply a modifier to several
/// services at once; it takes any number of children.
public struct Group: PrimitiveService {
    let children: [any Service]

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

/// Builds a service tree from service expressions, `if`, `if`/`else` and `for`,
/// with no limit on the number of children.
@resultBuilder
public enum ServiceBuilder {
    public static func buildExpression(_ service: some Service) -> [any Service] { [service] }
    public static func buildBlock(_ parts: [any Service]...) -> [any Service] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any Service]?) -> [any Service] { part ?? [] }
    public static func buildEither(first: [any Service]) -> [any Service] { first }
    public static func buildEither(second: [any Service]) -> [any Service] { second }
    public static func buildArray(_ parts: [[any Service]]) -> [any Service] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [any Service]) -> [any Service] { part }
    public static func buildFinalResult(_ parts: [any Service]) -> Group { Group(children: parts) }
}
