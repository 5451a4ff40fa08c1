// `@Ref`s in a component tree mounted in a cluster: a command that writes
// through one reference changes every store holding it, in one report.
import Compose
import Testing
import Trellis
import TrellisCompose
import TrellisTesting

struct Exhibit: Codable, Equatable, Identifiable, Sendable {
    var id: String
    var name: String
}

struct CardComponent: Component {
    struct State: AnyState, Codable {
        @Ref var exhibit: Exhibit
    }

    @Compose.Store var state: State
    let rename = ValueEmitter<String>()

    init(_ exhibit: Referred<Exhibit>) {
        state.$exhibit = exhibit
    }
}

extension CardComponent {
    var observers: Void {
        rename += { name in $state.update { $0.exhibit.name = name } }
    }
}

struct BoardComponent: Component {
    struct State: AnyState, Codable {
        @Ref var exhibit = Exhibit(id: "E1", name: "First")
    }

    @Compose.Store var state: State
    let left: CardComponent
    let right: CardComponent

    init() {
        left = CardComponent(_state.wrappedValue.$exhibit)
        right = CardComponent(_state.wrappedValue.$exhibit)
    }

    var observers: Void { None }
}

@Suite(.timeLimit(.minutes(1))) struct ReferenceCommandTests {
    static func card(_ name: String) -> CardComponent.State {
        var state = CardComponent.State()
        state.exhibit = Exhibit(id: "E1", name: name)
        return state
    }

    @Test func aWriteThroughOneCardIsAChangeOfEveryStoreHoldingTheExhibit() async throws {
        let store = try await ClusterTestStore { _ in try await Bootstrap { ComponentTreeService(root: BoardComponent()) } }
        store.assert("board", as: ComponentTreeState.self) {
            $0 = ComponentTreeState(
                paths: [:], stores: ["state": BoardComponent.State(), "left.state": Self.card("First"), "right.state": Self.card("First")])
        }
        try await store.send(EmitValue("left.rename", value: "Renamed"), to: "board")
        store.assert("board", as: ComponentTreeState.self) {
            $0.stores["state"] = BoardComponent.State(exhibit: Exhibit(id: "E1", name: "Renamed"))
            $0.stores["left.state"] = Self.card("Renamed")
            $0.stores["right.state"] = Self.card("Renamed")
        }
        await store.finish()
    }

    @Test func theChangesOfOneWriteAreReportedOnce() async throws {
        let cluster = try await Bootstrap { ComponentTreeService(root: BoardComponent()) }
        let observation = cluster.observe()
        try await cluster.send(action: EmitValue("right.rename", value: "Once"), to: "board")
        let changes = observation.takeAvailable().filter {
            if case .stateChanged = $0.kind { return true }
            return false
        }
        #expect(changes.count == 1)
        await cluster.shutDown()
    }
}
