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
    /// The services this one is made of.
    associatedtype Body: Service
    /// The services this one is made of; built once, at ``Bootstrap(_:)``.
    @ServiceBuilder var body: Body { get }
}

extension Never: Service {
    /// A service that is not made of others.
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
    if let mounted = service as? any MountedService {
        let handler = try await mounted.mount(in: context.cluster, name: context.name)
        return .leaf(
            ServiceLeaf(target: handler.target, accepts: handler.accepts, environment: context.boundEnvironment) { action in
                try await handler.run(action)
                return ServiceResult()
            })
    }
    // `@Environment` properties read during `body` see this subtree's values.
    let body = EnvironmentValues.$current.withValue(context.environment) { service.body }
    return try await buildService(body, context)
}
