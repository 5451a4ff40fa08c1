import Karc
import KarcSynchronization
import Testing
import TrellisTesting

/// A model whose pipes send commands to their own model (`commandDrain`),
/// with two pipelines of one factory told apart by id, and two resources
/// of one type kept under two ids.
struct Shelf: Equatable, Initable, Sendable {
    var items: [String] = []
}

enum ShelfCommand: Sendable {
    case put(String)
    /// Puts the item twice, through the model's own command drain.
    case putTwice(String)
}

/// A resource acquired once per id: each acquisition is a new label.
final class Label: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

@CheckedSendable
final class ShelfDomain: Domain<DefaultId, Shelf, ShelfCommand, Never> {}

@CheckedSendable
final class ShelfModel: Model<ShelfDomain, DefaultId, Shelf, ShelfCommand, String, Never> {
    override func reducer(state: Shelf, effect: String) -> (Shelf, [Never]) {
        (Shelf(items: state.items + [effect]), [])
    }

    @ScopesBuilder
    override func scopes(_ s: Shelf, _ i: Interactor) -> [Scope] {
        Injector<Label>(id: "left")
        Injector<Label>(id: "right")
        i.shelf(id: "putting")
        i.shelf(id: "relaying")
    }
}

extension ShelfModel.Interactor {
    /// One factory, two pipelines: `putting` handles `.put`, `relaying` turns `.putTwice` into two `.put`s.
    func shelf(id: String) -> Pipeline {
        let probe = environ.probe
        return Pipeline(id: id, begin: { _, context in probe.record("begin \(context.pipelineId)") }) {
            Pipe(id: "\(id)-pipe", mode: .duplex(), source: commandSource) { (command: ShelfCommand, _) in
                switch (id, command) {
                case ("putting", .put(let item)): _ = try await sendEffects(item)
                case ("relaying", .putTwice(let item)):
                    try await commandDrain.send(ShelfCommand.put(item))
                    try await commandDrain.send(ShelfCommand.put(item))
                default: throw UnexpectedCommand()
                }
            }
        }
    }
}

struct UnexpectedCommand: Error {}

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct ShelfModelTests {
    func setUp(_ probe: Probe = Probe()) async throws -> (ShelfDomain, Environ) {
        let serials = KarcMutex(0)
        let environ = Environ.probing(probe).register(
            acquire: { _ in
                Label(
                    serial: serials.withLock {
                        $0 += 1
                        return $0
                    })
            },
            release: { (_: Label) in probe.record("released a label") }
        )
        try await ShelfModel.setUp(.init(environ: environ))
        return (try await ShelfDomain.get, environ)
    }

    @Test func twoPipelinesOfOneFactoryRunSideBySideUnderTheirIds() async throws {
        let probe = Probe()
        _ = try await setUp(probe)
        // Each pipeline begins in its own task, after set-up has attached its pipes.
        #expect(await probe.wait { Set($0.filter { $0.hasPrefix("begin") }) == ["begin shelf(putting)", "begin shelf(relaying)"] })
        #expect(probe.count("begin shelf(putting)") == 1)
        await ShelfModel.tearDown()
    }

    @Test func aPipeSendsCommandsToItsOwnModelThroughTheCommandDrain() async throws {
        let (domain, _) = try await setUp()
        try await domain.send(.put("cup"))
        try await domain.send(.putTwice("plate"))
        #expect(await domain.state == Shelf(items: ["cup", "plate", "plate"]))
        await ShelfModel.tearDown()
    }

    @Test func resourcesKeptUnderTwoIdsAreTwoResourcesResolvedByTheirIds() async throws {
        let probe = Probe()
        let (_, environ) = try await setUp(probe)
        let left = try await environ.resolve(Label.self, id: "left")
        let right: Label = try await environ.resolve(id: "right")
        #expect(left !== right)
        #expect(Set([left.serial, right.serial]) == [1, 2])
        await #expect(throws: EnvironError.notAcquired(resource: "Label", id: "middle")) {
            try await environ.resolve(Label.self, id: "middle")
        }
        await ShelfModel.tearDown()
        #expect(probe.count("released a label") == 2)
    }
}
