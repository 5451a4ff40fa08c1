import Compose
import Foundation
import TestSupport
import Testing

/// A router showing one of two components that hold the same specimen.
struct GalleryComponent: RouterComponent {
    let front: SpecimenComponent
    let back: SpecimenComponent
    let router = Router(start: \Self.front)

    @Store var state: ExhibitionComponent.State

    init() {
        front = SpecimenComponent(specimen: _state.wrappedValue.$specimen)
        back = SpecimenComponent(specimen: _state.wrappedValue.$specimen)
    }

    var observers: Void { None }
}

/// A state holding its references one level down, and twice.
struct CatalogueComponent: Component {
    struct Shelf: Equatable, Sendable {
        @Ref var main = SpecimenModel(id: "A", name: "Alpha")
        @RefCollection var others = [SpecimenModel(id: "A", name: "Alpha"), SpecimenModel(id: "B", name: "Beta")]
    }

    struct State: AnyState {
        var shelf = Shelf()
        var note = ""
    }

    @Store var state: State
    var observers: Void { None }
}

/// A component whose store is saved to a file, beside one that is not.
struct ArchiveComponent: Component {
    let kept: KeptSpecimenComponent
    let shown: SpecimenComponent

    @Store var state: ExhibitionComponent.State

    init(directory: String) {
        kept = KeptSpecimenComponent(specimen: _state.wrappedValue.$specimen, directory: directory)
        shown = SpecimenComponent(specimen: _state.wrappedValue.$specimen)
    }

    var observers: Void { None }
}

struct KeptSpecimenComponent: Component {
    @Store var state: SpecimenComponent.State

    init(specimen: Referred<SpecimenModel>, directory: String) {
        _state = Store(wrappedValue: .init(), storage: FilePersistentStorage(key: "specimen", directory: directory))
        state.$specimen = specimen
    }

    var observers: Void { None }
}

@Suite("References in a tree: trees apart, components leaving, conflicts, persistence, tasks", .timeLimit(.minutes(1)))
struct ReferenceTreeTests {
    @Test func twoTreesNeverSeeEachOthersValues() {
        let first = ComponentTree(root: ExhibitionComponent())
        let second = ComponentTree(root: ExhibitionComponent())
        first.root.specimenA.state.specimen.name = "First's"

        #expect(first.root.specimenB.state.specimen.name == "First's")
        #expect(second.root.state.specimen.name == "Funny Circle")
        #expect(second.root.specimenB.state.specimen.name == "Funny Circle")
        first.unbind()
        second.unbind()
    }

    @Test func aComponentThatLeavesTheTreeStopsBeingUpdatedAndCatchesUpWhenItComesBack() {
        let tree = ComponentTree(root: GalleryComponent())
        let gallery = tree.root
        gallery.router.replace(\GalleryComponent.back)  // the front leaves the tree

        gallery.state.specimen.name = "While Away"
        #expect(gallery.back.state.specimen.name == "While Away")
        #expect(gallery.front.state.specimen.name == "Funny Circle", "an inactive component keeps what it had")

        gallery.router.replace(\GalleryComponent.front)
        #expect(gallery.front.state.specimen.name == "While Away", "back in the tree, it takes the tree's value")
        gallery.back.state.specimen.name = "Back Only"
        #expect(gallery.state.specimen.name == "While Away", "the inactive back's own write reaches nobody")
        tree.unbind()
    }

    @Test func aStoreOutsideATreeKeepsItsOwnCopy() {
        let exhibition = ExhibitionComponent()  // never bound
        exhibition.specimenA.state.specimen.name = "Alone"
        #expect(exhibition.specimenB.state.specimen.name == "Funny Circle")
        #expect(exhibition.state.specimen.name == "Funny Circle")
    }

    @Test func referencesInsideAStructAreFoundAndOneStateCanHoldAnIdentifierTwice() {
        let tree = ComponentTree(root: CatalogueComponent())
        let seen = Recorder<[String]>()
        tree.root.$state.willChange += { seen.record([$0.shelf.main.name] + $0.shelf.others.map(\.name)) }

        tree.root.state.shelf.main.name = "Alpha Prime"

        #expect(tree.root.state.shelf.others.map(\.name) == ["Alpha Prime", "Beta"])
        #expect(seen.values == [["Alpha Prime", "Alpha", "Beta"], ["Alpha Prime", "Alpha Prime", "Beta"]])
        tree.unbind()
    }

    @Test func twoDifferentValuesForOneIdentifierAreReportedAndTheLastIsKept() {
        let tree = ComponentTree(root: CatalogueComponent())
        let conflicts = Recorder<ReferenceConflict>()
        tree.referenceConflicts += { conflicts.record($0) }

        tree.root.$state.update { state in
            state.shelf.main.name = "One"
            state.shelf.others[0].name = "Other"
        }

        #expect(tree.root.state.shelf.main.name == "Other")
        #expect(tree.root.state.shelf.others[0].name == "Other")
        #expect(
            conflicts.values.map(\.description) == [
                #"2 different values of SpecimenModel "A" in one state: identifiers must be unique; the last one is now every holder's"#
            ])
        tree.unbind()
    }

    @Test func aRelinkedRefFollowsItsNewIdentifier() {
        let tree = ComponentTree(root: CollectionExhibitionComponent())
        let exhibition = tree.root
        exhibition.specimenA.state.$specimen = exhibition.state.$specimens[1]

        exhibition.specimenA.state.specimen.name = "Both Point Here"
        #expect(exhibition.state.specimens.map(\.name) == ["Funny Circle", "Both Point Here"])
        #expect(exhibition.specimenB.state.specimen.name == "Both Point Here")
        tree.unbind()
    }

    @Test func aPersistedRefIsRestoredAndLinkedAgain() throws {
        let directory = NSTemporaryDirectory() + "karc-references-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = ComponentTree(root: ArchiveComponent(directory: directory))
        first.root.state.specimen.name = "Saved Circle"
        try first.root.kept.$state.persistence.save()
        first.unbind()

        let second = ComponentTree(root: ArchiveComponent(directory: directory))
        let archive = second.root
        #expect(archive.kept.state.specimen.name == "Funny Circle", "the parent's value, given at construction")
        #expect(try archive.kept.$state.persistence.restore())

        #expect(archive.kept.state.specimen == SpecimenModel(id: "MY-MODEL-ID", name: "Saved Circle"))
        #expect(archive.state.specimen.name == "Saved Circle", "a restore is a write: every holder takes it")
        #expect(archive.shown.state.specimen.name == "Saved Circle")
        archive.shown.state.specimen.name = "After"
        #expect(archive.kept.state.specimen.name == "After", "the restored store is still linked")
        second.unbind()
    }

    @Test func writesFromTwoTasksEndWithEveryHolderAgreeing() async {
        let tree = ComponentTree(root: ExhibitionComponent())
        let exhibition = tree.root
        await withTaskGroup(of: Void.self) { group in
            for writer in [exhibition.specimenA, exhibition.specimenB] {
                group.addTask {
                    for index in 0..<500 { writer.$state.update { $0.specimen.name = "\(index)" } }
                }
            }
        }
        let names = [exhibition.state.specimen.name, exhibition.specimenA.state.specimen.name, exhibition.specimenB.state.specimen.name]
        #expect(Set(names).count == 1, "every holder agrees: \(names)")
        tree.unbind()
    }
}
