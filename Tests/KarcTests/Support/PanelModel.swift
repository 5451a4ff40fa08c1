import Karc

/// A model whose scopes follow its state: an always-on control pipeline,
/// `on`/`off` pipelines (if/else), a tracked pipeline with injected and used
/// resources, an injector, and one leaf submodel per child id (for).
struct Panel: Equatable, Initable, Sendable {
    var isOn = false
    var children: [Int] = []
    var injecting = false
    var tracking = false
}

protocol PanelCommand: Sendable {}
struct Switch: PanelCommand { let on: Bool }
struct SetChildren: PanelCommand { let ids: [Int] }
struct SetInjecting: PanelCommand { let on: Bool }
struct SetTracking: PanelCommand { let on: Bool }
struct Ping: PanelCommand {}
struct StopMyself: PanelCommand {}
struct Track: PanelCommand {}

enum PanelEffect: Sendable {
    case on(Bool)
    case children([Int])
    case injecting(Bool)
    case tracking(Bool)
}

@CheckedSendable
final class PanelDomain: Domain<String, Panel, PanelCommand, Never> {}

@CheckedSendable
final class PanelModel: Model<PanelDomain, String, Panel, PanelCommand, PanelEffect, Never> {
    override func reducer(state: Panel, effect: PanelEffect) -> (Panel, [Never]) {
        var s = state
        switch effect {
        case .on(let on): s.isOn = on
        case .children(let ids): s.children = ids
        case .injecting(let on): s.injecting = on
        case .tracking(let on): s.tracking = on
        }
        return (s, [])
    }

    @ScopesBuilder
    override func scopes(_ s: Panel, _ i: Interactor) -> [Scope] {
        i.control
        if s.injecting {
            Injector<Tracker>()
        }
        if s.isOn {
            i.on
        } else {
            i.off
        }
        if s.tracking {
            i.tracked
        }
        for child in s.children {
            LeafModel.submodel(id: "\(id)-\(child)")
        }
    }
}

extension PanelModel.Interactor {
    var probe: Probe { environ.probe }

    func control() -> Pipeline {
        Pipeline {
            Pipe(id: "switch", mode: .duplex(), source: commandSource) { (c: Switch, _) in try await sendEffects(.on(c.on)) }
            Pipe(id: "children", mode: .duplex(), source: commandSource) { (c: SetChildren, _) in try await sendEffects(.children(c.ids)) }
            Pipe(id: "injecting", mode: .duplex(), source: commandSource) { (c: SetInjecting, _) in try await sendEffects(.injecting(c.on)) }
            Pipe(id: "tracking", mode: .duplex(), source: commandSource) { (c: SetTracking, _) in try await sendEffects(.tracking(c.on)) }
        }
    }

    func on() -> Pipeline {
        Pipeline(begin: { _, _ in probe.record("on begin") }, end: { _, _ in probe.record("on end") }) {
            Pipe(id: "ping", mode: .duplex(), source: commandSource) { (_: Ping, _) in "pong" }
            Pipe(id: "stop-myself", mode: .duplex(), source: commandSource) { (_: StopMyself, _) -> String in
                // Deactivates this very pipeline: the wait for that must not deadlock.
                try await sendEffects(.on(false))
                return "stopped"
            }
        }
    }

    func off() -> Pipeline {
        Pipeline(begin: { _, _ in probe.record("off begin") }, end: { _, _ in probe.record("off end") }) {}
    }

    func tracked() -> Pipeline {
        @Inject<Tracker, DefaultId>(environ) var tracker
        @Use<Gadget, DefaultId>(environ) var gadget
        return Pipeline {
            Pipe(id: "track", mode: .duplex(), source: commandSource) { (_: Track, _) in
                "\(tracker.name) \(gadget.name)"
            }
        }
    }
}

/// Resources that count how often they are opened and closed.
final class Tracker: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

final class Gadget: Sendable {
    let name = "gadget"
}

extension Environ {
    /// An environ with a probe, a Tracker and a Gadget that record their lifecycle.
    static func panel(_ probe: Probe) -> Environ {
        Environ.probing(probe)
            .register(
                acquire: { _ in
                    probe.record("tracker opened")
                    return Tracker(name: "tracker")
                },
                release: { (_: Tracker) in probe.record("tracker closed") }
            )
            .register(
                acquire: { _ in
                    probe.record("gadget opened")
                    return Gadget()
                },
                release: { (_: Gadget) in probe.record("gadget closed") }
            )
    }
}

struct Leaf: Equatable, Initable, Sendable { var count = 0 }
struct Bump: Sendable {}
@CheckedSendable
final class LeafDomain: Domain<String, Leaf, Bump, Never> {}

@CheckedSendable
final class LeafModel: Model<LeafDomain, String, Leaf, Bump, Int, Never> {
    override func reducer(state: Leaf, effect: Int) -> (Leaf, [Never]) { (Leaf(count: state.count + effect), []) }

    @ScopesBuilder
    override func scopes(_ s: Leaf, _ i: Interactor) -> [Scope] {
        Pipeline {
            Pipe(id: "bump", mode: .duplex(), source: i.commandSource) { (_: Bump, _) in try await i.sendEffects(1) }
        }
    }
}

extension PanelModel {
    static func make(_ probe: Probe) async throws -> PanelDomain {
        let id = "panel"
        try await setUp(Config(environ: .panel(probe), id: id))
        return try await PanelDomain.get(id: id)
    }
}
