import Compose
import Trellis

/// A Compose component tree mounted in a cluster as a target, so that the
/// cluster's tooling drives the app's flow without its UI: each emitter is
/// a command, and the target's state is the tree's `ComponentTreeState` (Compose).
///
/// ```swift
/// let cluster = try await Bootstrap {
///     ComponentTreeService(root: AuthComponent())   // the target `auth`
/// }
/// try await cluster.send(action: EmitSignal("openSignUp"), to: "auth")
/// ```
///
/// ```
/// send(EmitSignal / EmitValue) ──▶ the emitter at its path, in an active component
///                                    │ (its observers run: navigation, stores)
///                                    ▼
///                  ComponentTree.changed ──▶ stateChanged(old, new) to the cluster's observers
///                  ComponentTree.refused ──▶ an event (RouteError)
/// ```
///
/// In the karc shell the emitters are commands named by their path,
/// kebab-cased: `auth.open-sign-up`, `auth.log-in.open-reset-password`;
/// a value emitter takes `value=` (when its value type is `Decodable`).
/// Only an active component's emitters can be sent to, as only a shown
/// screen's buttons can be tapped. The commands are the emitters held by
/// the root and by the child components under it; a dynamic or instance
/// component's are not listed (they do not exist until made), though
/// `EmitSignal`/`EmitValue` reach them by path once they are active.
///
/// The tree is bound when the cluster is built and unbound when it shuts
/// down; `cluster.reset()` unbinds it and binds a new root made by `root`
/// (stores made with that root start again).
public struct ComponentTreeService<Root: Component>: MountedService {
    let makeRoot: @Sendable () -> Root

    /// Mounts the tree of the component `root` makes; the target is named
    /// after its type (`AuthComponent`: `auth`) unless `.named(_:)` says otherwise.
    public init(root: @autoclosure @escaping @Sendable () -> Root) {
        makeRoot = root
    }

    /// `AuthComponent` → `auth`, `Onboarding` → `onboarding`.
    static var defaultName: String {
        var name = "\(Root.self)"
        if name.hasSuffix("Component"), name.count > "Component".count { name.removeLast("Component".count) }
        return name.prefix(1).lowercased() + name.dropFirst()
    }

    package func mount(in cluster: Cluster, name: String?) async throws -> MountedHandler {
        let mounted = MountedTree(makeRoot: makeRoot, hub: cluster.hub)
        let commands = ComponentTree<Root>.emitters(of: mounted.root).map { Self.command(path: $0.path, emitter: $0.emitter) }
        let target = cluster.register(
            name: name ?? Self.defaultName, kind: .components, accepts: [EmitSignal.self], events: [RouteError.self],
            commands: commands, state: { mounted.current })
        mounted.start(target: target)
        cluster.onReset(target) { mounted.rebind() }
        cluster.onShutDown { mounted.unbind() }
        return MountedHandler(target: target, accepts: { $0 is any EmitterAction }) { action in
            guard let action = action as? any EmitterAction else { return }
            try mounted.emit(action)
        }
    }

    /// The emitter at `path` as a command: ``EmitSignal`` for a signal, else ``EmitValue`` of the value typed.
    private static func command(path: String, emitter: any PathEmitter) -> TargetCommand {
        let type = emitter.valueType
        let isSignal = ObjectIdentifier(type) == ObjectIdentifier(Void.self)
        let summary = isSignal ? "fires \(path) (a signal)" : "sends a \(type) through \(path)"
        return TargetCommand(name: path, input: isSignal ? nil : type, summary: summary) { (value: (any Sendable)?) -> any Sendable in
            guard let value else { return EmitSignal(path) }
            return emitValue(path, value)
        }
    }

    private static func emitValue<Value: Sendable>(_ path: String, _ value: Value) -> any Sendable {
        EmitValue(path, value: value)
    }
}
