import Karc
import KarcAsync
import Testing
import Trellis
import TrellisTesting

/// An actor model that opts in to restores.
actor Shelf: StatefulModel, Restorable {
    var state: [String] = []
    func put(_ book: String) { state.append(book) }
    func restore(_ state: [String]) { self.state = state }
}

struct PutBook: Action { var title: String }

/// A gate that lets people through only while it is open: the passing pipe
/// runs in the open state's scope alone, so a restore must re-evaluate scopes.
struct Gate: Equatable, Initable, Sendable {
    var isOpen = false
    var passed = 0
}

protocol GateCommand: Sendable {}
struct OpenGate: GateCommand {}
struct PassGate: GateCommand {}

enum GateEffect: Sendable {
    case open
    case passed
}

@CheckedSendable
final class GateDomain: Domain<DefaultId, Gate, any GateCommand, Never> {}

@CheckedSendable
final class GateModel: Model<GateDomain, DefaultId, Gate, any GateCommand, GateEffect, Never> {
    override func reducer(state: Gate, effect: GateEffect) -> (Gate, [Never]) {
        var state = state
        switch effect {
        case .open: state.isOpen = true
        case .passed: state.passed += 1
        }
        return (state, [])
    }

    @ScopesBuilder
    override func scopes(_ state: Gate, _ i: Interactor) -> [Scope] {
        Pipeline(id: "opening") {
            Pipe(id: "open", mode: .duplex(), source: i.commandSource) { (_: OpenGate, _) in _ = try await i.sendEffects(GateEffect.open) }
        }
        if state.isOpen {
            Pipeline(id: "passing") {
                Pipe(id: "pass", mode: .duplex(), source: i.commandSource) { (_: PassGate, _) in _ = try await i.sendEffects(GateEffect.passed) }
            }
        }
    }
}

/// `cluster.snapshot()` and `cluster.restore(_:)`: every target that can be
/// restored takes a state back through the runtime; the others are named.
@Suite(.timeLimit(.minutes(1))) struct ClusterRestoreTests {
    func cluster() async throws -> Cluster {
        try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { tally, action, _ in
                    if case .add(let n) = action { tally.total += n }
                }
                .with(model: Tally(total: 5))
                .named("tally")
            Store(model: Shelf.self).mutate(on: PutBook.self) { shelf, put, _ in shelf.put(put.title) }.with(model: Shelf()).named("shelf")
            Store(model: Visits.self).mutate(on: Visit.self) { visits, _, _ in visits.visit() }.with(model: Visits()).named("visits")
            GateModel.service(.init(environ: Environ()), commands: [OpenGate.self, PassGate.self]).named("gate")
        }
    }

    func state<T>(_ cluster: Cluster, _ target: String, as: T.Type = T.self) async -> T? {
        await cluster.target(named: target)?.state?() as? T
    }

    @Test func aSnapshotHoldsEveryRestorableTargetAndNamesTheOthers() async throws {
        let cluster = try await cluster()
        let snapshot = await cluster.snapshot()
        #expect(snapshot.states.keys.sorted() == ["gate", "shelf", "tally"])
        #expect(snapshot.left == ["visits"])  // an actor model that is not Restorable
        #expect(cluster.restorableTargets == ["tally", "shelf", "gate"])
        await cluster.shutDown()
    }

    @Test func restoringPutsEachStateBackAndObserversSeeChangesCausedByRestore() async throws {
        let cluster = try await cluster()
        let start = await cluster.snapshot()
        try await cluster.send(action: CounterAction.add(3))
        try await cluster.send(action: PutBook(title: "Dune"))
        try await cluster.send(action: Visit())
        try await cluster.send(action: OpenGate())
        try await cluster.send(action: PassGate())

        let observation = cluster.observe(tracing: true)
        try await cluster.restore(start)
        #expect(await state(cluster, "tally", as: Tally.self) == Tally(total: 5))
        #expect(await state(cluster, "shelf", as: [String].self) == [])
        #expect(await state(cluster, "gate", as: Gate.self) == Gate())
        #expect(await state(cluster, "visits", as: Int.self) == 1)  // left as it was

        var changes: [(String, String?)] = []
        for await record in observation {
            if case .stateChanged(let source, _, _) = record.kind { changes.append((source, record.link?.origin)) }
            if changes.count == 3 { break }
        }
        #expect(changes.map(\.0) == ["tally", "shelf", "gate"])  // declaration order
        #expect(changes.allSatisfy { $0.1 == "restore" })  // a trace of its own, named by its source
        await cluster.shutDown()
    }

    @Test func aRestoredKarcModelRunsTheScopesOfTheStateItTook() async throws {
        let cluster = try await cluster()
        let closed = await cluster.snapshot()
        try await cluster.send(action: OpenGate())
        let open = await cluster.snapshot()

        try await cluster.restore(closed)
        await #expect(throws: ModelError.self) { try await cluster.send(action: PassGate()) }  // the passing scope stopped
        try await cluster.restore(open)
        try await cluster.send(action: PassGate())  // and runs again
        #expect(await state(cluster, "gate", as: Gate.self) == Gate(isOpen: true, passed: 1))
        await cluster.shutDown()
    }

    @Test func nothingIsRestoredWhenAnyStateCannotBe() async throws {
        let cluster = try await cluster()
        try await cluster.send(action: CounterAction.add(3))

        await #expect(throws: TrellisError.restoreTypeMismatch(target: "shelf", expected: "Array<String>", given: "Int")) {
            try await cluster.restore(ClusterSnapshot(states: ["tally": Tally(total: 0), "shelf": 7]))
        }
        await #expect(throws: TrellisError.notRestorable(target: "visits")) {
            try await cluster.restore(ClusterSnapshot(states: ["tally": Tally(total: 0), "visits": 0]))
        }
        await #expect(throws: TrellisError.unknownTarget(name: "nope", targets: ["tally", "shelf", "visits", "gate"])) {
            try await cluster.restore(ClusterSnapshot(states: ["tally": Tally(total: 0), "nope": 0]))
        }
        #expect(await state(cluster, "tally", as: Tally.self) == Tally(total: 8))  // checked before anything changed
        #expect(
            "\(TrellisError.notRestorable(target: "visits"))"
                == "'visits' cannot be restored: its model is not Restorable (conform it to Restorable to restore it)")
        #expect(
            "\(TrellisError.restoreTypeMismatch(target: "shelf", expected: "Array<String>", given: "Int"))"
                == "cannot restore 'shelf': its state is a Array<String>, not a Int")

        await cluster.shutDown()
        await #expect(throws: TrellisError.shutDown) { try await cluster.restore(ClusterSnapshot(states: [:])) }
    }

    @Test func aTestStoreRestoresASnapshotAndAssertsTheChange() async throws {
        let store = try await ClusterTestStore { _ in try await cluster() }
        let start = await store.snapshot()
        try await store.send(CounterAction.add(2))
        store.assert("tally", as: Tally.self) { $0.total = 7 }
        try await store.restore(start)
        store.assert("tally", as: Tally.self) { $0.total = 5 }
        await store.finish()
    }
}
