import Karc
import Testing
import TrellisTesting

/// A door that takes knocks only while it is open: the knocking pipe runs in
/// the open state's scope alone.
struct Door: Equatable, Initable, Sendable {
    var isOpen = false
}

protocol DoorCommand: Sendable {}
struct OpenDoor: DoorCommand {}
struct Knock: DoorCommand {}

@CheckedSendable
final class DoorDomain: Domain<String, Door, any DoorCommand, Never> {}

@CheckedSendable
class DoorModel: Model<DoorDomain, String, Door, any DoorCommand, Bool, Never> {
    override func reducer(state: Door, effect: Bool) -> (Door, [Never]) {
        (Door(isOpen: effect), [])
    }

    @ScopesBuilder
    override func scopes(_ state: Door, _ i: Interactor) -> [Scope] {
        Pipeline(id: "opening") {
            Pipe(id: "open", mode: .duplex(), source: i.commandSource) { (_: OpenDoor, _) in _ = try await i.sendEffects(true) }
        }
        if state.isOpen {
            Pipeline(id: "knocking") {
                Pipe(id: "knock", mode: .duplex(), source: i.commandSource) { (_: Knock, _) in "come in" }
            }
        }
    }
}

struct DoorIsShut: Error, Equatable, CustomStringConvertible {
    var description: String { "the door is shut: open it first" }
}

/// The same door, which says in its own words why it takes no knock.
@CheckedSendable
final class PoliteDoorModel: DoorModel {
    override func refusal(of command: any DoorCommand, in state: Door) -> (any Error)? {
        command is Knock && !state.isOpen ? DoorIsShut() : nil
    }
}

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct RefusalTests {
    @Test func aCommandNoRunningPipeTakesNamesTheModelAndTheCommandNotTheGate() async throws {
        try await DoorModel.setUp(.init(environ: Environ(), id: "front"))
        let door = try await DoorDomain.get(id: "front")

        let error = await #expect(throws: ModelError.self) { try await door.send(Knock()) }
        #expect(error == .notTaken(model: "DoorModel(front)", command: "Knock"))
        #expect(
            "\(error.map { "\($0)" } ?? "")"
                == "DoorModel(front) takes no Knock in its current state: none of its running pipes handles it (the scope that does is not active)")

        _ = try await door.send(OpenDoor())
        #expect(try await door.send(Knock()) as? String == "come in")
        await DoorModel.tearDown(id: "front")
    }

    @Test func aModelSaysInItsOwnWordsWhyItTakesNoCommandInItsState() async throws {
        try await PoliteDoorModel.setUp(.init(environ: Environ(), id: "back"))
        let door = try await DoorDomain.get(id: "back")

        await #expect(throws: DoorIsShut()) { try await door.send(Knock()) }

        _ = try await door.send(OpenDoor())
        #expect(try await door.send(Knock()) as? String == "come in")
        await PoliteDoorModel.tearDown(id: "back")
    }

    @Test func aTornDownModelStillSaysItWasTornDown() async throws {
        try await PoliteDoorModel.setUp(.init(environ: Environ(), id: "side"))
        let door = try await DoorDomain.get(id: "side")
        await PoliteDoorModel.tearDown(id: "side")

        await #expect(throws: ModelError.self) { try await door.send(Knock()) }
    }
}
