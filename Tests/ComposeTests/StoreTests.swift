import Compose
import TestSupport
import Testing

@Suite("Store: state with willChange", .timeLimit(.minutes(1)))
struct StoreTests {
    struct State: AnyState {
        var firstName = ""
        var lastName = ""
        var count = 0
    }

    @Test func willChangeEmitsTheNewStateOnlyWhenItChanges() {
        @Store var state: State
        let seen = Recorder<String>()
        $state.willChange += { seen.record("\($0.firstName) \($0.lastName)") }

        state.firstName = "Jill"
        state.firstName = "Jill"  // no change, no emission
        state.lastName = "Valentine"

        #expect(seen.values == ["Jill ", "Jill Valentine"])
        #expect(state.firstName == "Jill")
    }

    @Test func chainedObserversSeeOnlyThePartThatChanged() {
        let store = Store<State>()
        let names = Recorder<String>()
        store.willChange.tap(\.firstName).undup() += { names.record($0) }
        store.wrappedValue.firstName = "Jill"
        store.wrappedValue.count = 1
        store.wrappedValue.firstName = "Chris"
        #expect(names.values == ["Jill", "Chris"])
    }

    @Test func anObserverMayReadTheStore() {
        let store = Store<State>()
        let seen = Recorder<Int>()
        store.willChange += { _ in seen.record(store.wrappedValue.count) }
        store.update { $0.count = 3 }
        #expect(seen.values == [3])
    }

    @Test func updatesFromManyTasksAreAtomicAndEmittedInOrder() async {
        let store = Store<State>()
        let counts = Recorder<Int>()
        store.willChange += { counts.record($0.count) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<250 { store.update { $0.count += 1 } } }
            }
        }
        #expect(store.wrappedValue.count == 2_000)
        #expect(await counts.until { $0.count == 2_000 })
        #expect(counts.values == Array(1...2_000))
    }

    @Test func copiesOfAStructShareItsStore() {
        struct Component {
            @Store var state: State
        }
        let component = Component()
        let copy = component
        component.state.count = 5
        #expect(copy.state.count == 5)
    }
}
