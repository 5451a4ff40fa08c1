// A Compose component tree mounted in a cluster (`ComponentTreeService`):
// its emitters are commands, its routers' stacks and stores its state.
import Compose
import Foundation
import Testing
import Trellis
import TrellisCompose
import TrellisTesting

struct Welcome: Component {
    let next = SignalEmitter()
    var observers: Void { None }
}

struct Details: Component {
    struct Form: AnyState, Codable {
        var name = ""
        var age = 0
    }

    @Compose.Store var form = Form()
    let name = ValueEmitter<String>()
    let age = ValueEmitter<Int>()
    let back = SignalEmitter()
}

extension Details {
    var observers: Void {
        name += { name in $form.update { $0.name = name } }
        age += { age in $form.update { $0.age = age } }
    }
}

struct Done: Component {
    let number: Int
    var observers: Void { None }
}

/// A sign-up wizard: welcome, then details, then a confirmation made when it is reached.
struct WizardComponent: RouterComponent {
    let welcome = Welcome()
    let details = Details()
    let done = DynamicComponent<Done>()
    /// Progress kept outside any command's reach: the test changes it directly.
    let progress: Compose.Store<Progress>
    let finish = SignalEmitter()
    let router = Router(start: \Self.welcome)

    struct Progress: AnyState, Codable {
        var percent = 0
    }
}

extension WizardComponent {
    var observers: Void {
        welcome.next += {
            // Two changes in one command (a store, then a navigation): one report.
            progress.update { $0.percent = 50 }
            router.push(\Self.details)
        }
        details.back += { router.pop() }
        finish += { router.push(\Self.done) }  // refused: `done` is never made
    }
}

@Suite(.timeLimit(.minutes(1))) struct ComponentTreeServiceTests {
    static let progress = Compose.Store<WizardComponent.Progress>()

    static func cluster(progress: Compose.Store<WizardComponent.Progress> = Compose.Store()) async throws -> Cluster {
        try await Bootstrap {
            ComponentTreeService(root: WizardComponent(progress: progress))
        }
    }

    @Test func emittersAreCommandsAndTheTreeIsTheState() async throws {
        let store = try await ClusterTestStore { _ in try await Self.cluster() }
        store.assert("wizard", as: ComponentTreeState.self) {
            $0 = ComponentTreeState(paths: ["router": ["welcome"]], stores: ["progress": WizardComponent.Progress()])
        }
        try await store.send(EmitSignal("welcome.next"), to: "wizard")
        store.assert("wizard", as: ComponentTreeState.self) {
            $0.paths["router"] = ["welcome", "details"]
            $0.stores["progress"] = WizardComponent.Progress(percent: 50)
            $0.stores["details.form"] = Details.Form()
        }
        try await store.send(EmitValue("details.name", value: "Jill"), to: "wizard")
        try await store.send(EmitValue("details.age", value: 42), to: "wizard")
        store.assert("wizard", as: ComponentTreeState.self) {
            $0.stores["details.form"] = Details.Form(name: "Jill", age: 42)
        }
        try await store.send(EmitSignal("details.back"), to: "wizard")
        store.assert("wizard", as: ComponentTreeState.self) {
            $0.paths["router"] = ["welcome"]
            $0.stores["details.form"] = nil
        }
        await store.finish()
    }

    @Test func aCommandsChangesAreReportedOnce() async throws {
        let cluster = try await Self.cluster()
        let observation = cluster.observe()
        try await cluster.send(action: EmitSignal("welcome.next"), to: "wizard")
        let changes = observation.takeAvailable().filter {
            if case .stateChanged = $0.kind { return true }
            return false
        }
        #expect(changes.count == 1)
        await cluster.shutDown()
    }

    @Test func theTargetListsItsEmittersAsCommands() async throws {
        let cluster = try await Self.cluster()
        let target = try #require(cluster.target(named: "wizard"))
        #expect(target.kind == .components)
        #expect(target.commands.map(\.name) == ["finish", "welcome.next", "details.name", "details.age", "details.back"])
        #expect(target.commands.map { $0.input.map { "\($0)" } } == [nil, nil, "String", "Int", nil])
        #expect(target.commands[2].action("Jill") as? EmitValue<String> == EmitValue("details.name", value: "Jill"))
        #expect(target.commands[0].action(nil) as? EmitSignal == EmitSignal("finish"))
        await cluster.shutDown()
    }

    @Test func anEmitterOfAComponentNoRouterShowsCannotBeSentTo() async throws {
        let cluster = try await Self.cluster()
        await #expect(throws: ComponentCommandError.inactive(emitter: "details.back", component: "details", shown: ["router": ["welcome"]])) {
            try await cluster.send(action: EmitSignal("details.back"), to: "wizard")
        }
        let error = ComponentCommandError.inactive(emitter: "details.back", component: "details", shown: ["router": ["welcome"]])
        #expect("\(error)" == "'details.back' is not active: no router shows details (router shows welcome)")
        await cluster.shutDown()
    }

    @Test func anUnknownEmitterIsNamedWithTheKnownOnes() async throws {
        let cluster = try await Self.cluster()
        await #expect(
            throws: ComponentCommandError.unknownEmitter(
                emitter: "welcome.nxt", known: ["finish", "welcome.next", "details.name", "details.age", "details.back"])
        ) {
            try await cluster.send(action: EmitSignal("welcome.nxt"), to: "wizard")
        }
        await cluster.shutDown()
    }

    @Test func aValueOfTheWrongTypeIsRefused() async throws {
        let cluster = try await Self.cluster()
        try await cluster.send(action: EmitSignal("welcome.next"), to: "wizard")
        await #expect(throws: ComponentCommandError.wrongValue(emitter: "details.age", expected: "Int", got: "String")) {
            try await cluster.send(action: EmitValue("details.age", value: "forty"), to: "wizard")
        }
        await #expect(throws: ComponentCommandError.wrongValue(emitter: "details.name", expected: "String", got: "()")) {
            try await cluster.send(action: EmitSignal("details.name"), to: "wizard")
        }
        await cluster.shutDown()
    }

    @Test func aRefusedNavigationIsAnEvent() async throws {
        let store = try await ClusterTestStore { _ in try await Self.cluster() }
        try await store.send(EmitSignal("finish"), to: "wizard")
        await store.receive(RouteError.notCreated(route: "\\WizardComponent.done"), from: "wizard")
        await store.finish()
    }

    @Test func aChangeOutsideAnyCommandIsReportedAsItHappens() async throws {
        let progress = Compose.Store<WizardComponent.Progress>()
        let store = try await ClusterTestStore { _ in try await Self.cluster(progress: progress) }
        progress.update { $0.percent = 10 }
        store.assert("wizard", as: ComponentTreeState.self) {
            $0.stores["progress"] = WizardComponent.Progress(percent: 10)
        }
        await store.finish()
    }

    @Test func resetBindsATreeFromANewRoot() async throws {
        let store = try await ClusterTestStore { _ in
            try await Bootstrap { ComponentTreeService(root: WizardComponent(progress: Compose.Store())) }
        }
        try await store.send(EmitSignal("welcome.next"), to: "wizard")
        try await store.send(EmitValue("details.name", value: "Jill"), to: "wizard")
        store.isExhaustive = false
        try await store.cluster.reset()
        await store.expectState("wizard", toBe: ComponentTreeState(paths: ["router": ["welcome"]], stores: ["progress": WizardComponent.Progress()]))
        await store.finish()
    }

    @Test func aTreeCanBeNamedAndIsUnboundWhenTheClusterShutsDown() async throws {
        let progress = Compose.Store<WizardComponent.Progress>()
        let cluster = try await Bootstrap { ComponentTreeService(root: WizardComponent(progress: progress)).named("signUp") }
        let state = try #require(await cluster.target(named: "signUp")?.state?()) as? ComponentTreeState
        #expect(state?.paths == ["router": ["welcome"]])
        await cluster.shutDown()
        #expect(await cluster.target(named: "signUp")?.state?() as? ComponentTreeState == ComponentTreeState())
    }
}
