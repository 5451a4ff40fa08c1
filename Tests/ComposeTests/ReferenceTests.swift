// The Compose seed README's "Identified References via @Ref and
// @RefCollection", with the mechanical changes of docs/porting.md: the
// states conform to `AnyState`, the model's initializer is labelled, and an
// initializer that reads the store before its other properties are set
// writes `_state.wrappedValue` for `state`.
import Compose
import Foundation
import Synchronization
import TestSupport
import Testing

struct SpecimenModel: Codable, Equatable, Identifiable, Sendable {
    var id: String
    var name: String
}

struct SpecimenComponent: Component {
    @Store var state: State

    init(specimen: Referred<SpecimenModel>) {
        state.$specimen = specimen
    }
}

extension SpecimenComponent {
    struct State: AnyState, Codable {
        @Ref var specimen: SpecimenModel
    }

    var observers: Void { None }
}

struct ExhibitionComponent: Component {
    let specimenA: SpecimenComponent
    let specimenB: SpecimenComponent

    @Store var state: State

    init() {
        specimenA = SpecimenComponent(specimen: _state.wrappedValue.$specimen)
        specimenB = SpecimenComponent(specimen: _state.wrappedValue.$specimen)
    }
}

extension ExhibitionComponent {
    struct State: AnyState {
        @Ref var specimen = SpecimenModel(id: "MY-MODEL-ID", name: "Funny Circle")
    }

    var observers: Void { None }
}

struct CollectionExhibitionComponent: Component {
    let specimenA: SpecimenComponent
    let specimenB: SpecimenComponent

    @Store var state: State

    init() {
        specimenA = SpecimenComponent(specimen: _state.wrappedValue.$specimens[0])
        specimenB = SpecimenComponent(specimen: _state.wrappedValue.$specimens[1])
    }
}

extension CollectionExhibitionComponent {
    struct State: AnyState {
        @RefCollection var specimens = [
            SpecimenModel(id: "MY-MODEL-ID-FIRST", name: "Funny Circle"),
            SpecimenModel(id: "MY-MODEL-ID-SECOND", name: "Heavy Box"),
        ]
    }

    var observers: Void { None }
}

@Suite("References: @Ref and @RefCollection kept the same across a tree", .timeLimit(.minutes(1)))
struct ReferenceTests {
    @Test func aWriteThroughOneRefReachesEveryComponentHoldingIt() {
        let tree = ComponentTree(root: ExhibitionComponent())
        let exhibition = tree.root
        let seenByB = Recorder<String>()
        exhibition.specimenB.$state.willChange += { seenByB.record($0.specimen.name) }

        exhibition.specimenA.state.specimen.name = "Sad Square"

        #expect(exhibition.state.specimen.name == "Sad Square")
        #expect(exhibition.specimenB.state.specimen.name == "Sad Square")
        #expect(seenByB.values == ["Sad Square"], "B's store changed, and said so once")
        tree.unbind()
    }

    @Test func eachStateKeepsItsOwnCopy() {
        let tree = ComponentTree(root: ExhibitionComponent())
        let before = tree.root.specimenB.state
        tree.root.state.specimen.name = "Renamed"

        #expect(before.specimen.name == "Funny Circle", "a state taken before is a value: it does not change")
        #expect(tree.root.specimenB.state.specimen.name == "Renamed")
        tree.unbind()
    }

    @Test func aCollectionsElementsAreReferencedOneByOne() {
        let tree = ComponentTree(root: CollectionExhibitionComponent())
        let exhibition = tree.root
        let seenByB = Recorder<String>()
        exhibition.specimenB.$state.willChange += { seenByB.record($0.specimen.name) }

        exhibition.specimenA.state.specimen.name = "Round Circle"

        #expect(exhibition.state.specimens.map(\.name) == ["Round Circle", "Heavy Box"])
        #expect(exhibition.specimenB.state.specimen.name == "Heavy Box")
        #expect(seenByB.values.isEmpty, "only the chunk that changed is updated")

        exhibition.state.specimens[1].name = "Light Box"
        #expect(exhibition.specimenB.state.specimen.name == "Light Box")
        #expect(exhibition.specimenA.state.specimen.name == "Round Circle")
        tree.unbind()
    }

    @Test func appendingOrRemovingChangesOnlyTheCollectionItWasDoneOn() {
        let tree = ComponentTree(root: CollectionExhibitionComponent())
        let exhibition = tree.root
        exhibition.state.specimens.append(SpecimenModel(id: "THIRD", name: "Tall Cone"))
        exhibition.state.specimens.removeFirst()

        #expect(exhibition.state.specimens.map(\.id) == ["MY-MODEL-ID-SECOND", "THIRD"])
        #expect(exhibition.specimenA.state.specimen == SpecimenModel(id: "MY-MODEL-ID-FIRST", name: "Funny Circle"))
        #expect(exhibition.specimenB.state.specimen.id == "MY-MODEL-ID-SECOND")

        // The element removed from the list is still the child's, and still its own.
        exhibition.specimenA.state.specimen.name = "Kept Circle"
        #expect(exhibition.state.specimens.map(\.name) == ["Heavy Box", "Tall Cone"])
        tree.unbind()
    }

    @Test func aRefReadBeforeItWasGivenAValueStopsTheProgramSayingWhy() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SpecimenComponent.State().specimen
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("a @Ref of SpecimenModel was read before it was given a value"), "\(message)")
    }

    @Test func aRefIsWrittenAsItsValueAndReadBack() throws {
        let state = ExhibitionComponent.State()
        var linked = SpecimenComponent.State()
        linked.$specimen = state.$specimen
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(linked)
        #expect(String(decoding: data, as: UTF8.self) == #"{"specimen":{"id":"MY-MODEL-ID","name":"Funny Circle"}}"#)
        #expect(try JSONDecoder().decode(SpecimenComponent.State.self, from: data) == linked)
        #expect(String(decoding: try encoder.encode(SpecimenComponent.State()), as: UTF8.self) == #"{"specimen":null}"#)
    }
}
