import Testing
import TrellisTesting

@testable import Karc

struct Quiet: Equatable, Initable, Sendable {}
@CheckedSendable
final class MisuseDomain: Domain<String, Quiet, Never, Never> {}

/// A simplex pipe on a source that answers `String` without an instant output:
/// it cannot answer its producers, so it must not attach (and must not crash).
@CheckedSendable
final class MisuseModel: Model<MisuseDomain, String, Quiet, Never, Never, Never> {
    @ScopesBuilder
    override func scopes(_ s: Quiet, _ i: Interactor) -> [Scope] {
        Pipeline {
            let words: Gate<Int, String> = i.environ.getConfig(key: "words") ?? Gate(mode: .retainable, scheme: .anycast)
            Pipe(id: "mute", mode: .simplex(), source: words) { (_: Int, _) in }
        }
    }
}

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct MisuseTests {
    @Test func aSimplexPipeThatCannotAnswerItsSourceStaysDetached() async throws {
        let id = "model"
        let words = Gate<Int, String>(mode: .retainable, scheme: .anycast)
        try await MisuseModel.setUp(.init(environ: Environ().setConfig(key: "words", value: words), id: id))
        await #expect(throws: GateError.self) { try await words.send(1) }
        #expect(words.consumerCount == 0)
        await MisuseModel.tearDown(id: id)
    }

    @Test func aSubmodelWhoseIdIsTakenIsLeftAloneByItsParent() async throws {
        let probe = Probe()
        let panel = try await PanelModel.make(probe)
        let childId = "\(panel.id)-7"
        // Someone else set this child up first.
        try await LeafModel.setUp(.init(environ: Environ(), id: childId))
        let original = try await LeafDomain.get(id: childId)
        _ = try await panel.send(SetChildren(ids: [7]))
        _ = try await panel.send(SetChildren(ids: []))
        // The parent neither replaced nor tore down a child it did not set up.
        #expect(try await LeafDomain.get(id: childId) === original)
        await PanelModel.tearDown(id: panel.id)
        await LeafModel.tearDown(id: childId)
    }
}
