import Compose
import Foundation
import KarcShellTrellis
import Testing
import Trellis
import TrellisCompose

@testable import KarcSession

/// The shell in front of a user's own component tree, mounted in their
/// cluster: its emitters are commands, typed like any other.
@Suite("The shell on a mounted component tree", .timeLimit(.minutes(1)))
struct ComponentTreeShellTests {
    enum Theme: String, Codable, Sendable { case light, dark }

    /// Not Decodable: its emitter cannot be typed.
    struct Photo: Sendable { let bytes: [UInt8] }

    struct Appearance: Component {
        struct Chosen: AnyState, Codable {
            var theme = Theme.light
            var size = 12
        }

        @Compose.Store var chosen = Chosen()
        let theme = ValueEmitter<Theme>()
        let size = ValueEmitter<Int>()
        let done = SignalEmitter()

        var observers: Void {
            theme += { theme in $chosen.update { $0.theme = theme } }
            size += { size in $chosen.update { $0.size = size } }
        }
    }

    struct Profile: Component {
        let avatar = ValueEmitter<Photo>()
        var observers: Void { None }
    }

    struct SettingsComponent: RouterComponent {
        let appearance = Appearance()
        let profile = Profile()
        let openAppearance = SignalEmitter()
        let router = Router(start: \Self.profile)

        var observers: Void {
            openAppearance += { router.push(\Self.appearance) }
        }
    }

    func settings() async throws -> ClusterShell {
        let cluster = try await Bootstrap { ComponentTreeService(root: SettingsComponent()) }
        return ClusterShell(name: "app", cluster: cluster)
    }

    @Test func emittersAreCommandsTypedByTheirValues() async throws {
        let shell = try await settings()
        let target = try #require(shell.catalog.target(named: "settings"))
        #expect(target.kind == "components")
        #expect(
            target.commands.map(\.synopsis) == ["open-appearance", "appearance.theme value=Theme", "appearance.size value=Int", "appearance.done"])
        #expect(target.hiddenNote == "cannot be typed (not Decodable): profile.avatar (its Photo values are not Decodable)")
        let run = try await Transcript.run(
            shell, ["settings.open-appearance", "settings.appearance.theme value=dark", #"settings.appearance.size {"value": 14}"#])
        #expect(run.errors == "")
        let state = try #require(await shell.state(of: "settings") as? ComponentTreeState)
        #expect(state.paths == ["router": ["profile", "appearance"]])
        #expect(state.stores["appearance.chosen"] as? Appearance.Chosen == Appearance.Chosen(theme: .dark, size: 14))
        #expect(run.output.contains("+       theme: .dark,"), "\(run.output)")
    }

    @Test func aValueIsCheckedAgainstTheEmittersType() async throws {
        let run = try await Transcript.run(try await settings(), ["settings.open-appearance", "settings.appearance.size value=big"])
        #expect(run.status == 1)
        #expect(run.errors == "<test>:2:32: error: field 'value' expects Int, got \"big\"\n")
    }

    @Test func aButtonOfAScreenNotShownFailsTheCommand() async throws {
        let run = try await Transcript.run(try await settings(), ["settings.appearance.done"])
        #expect(run.status == 1)
        #expect(
            run.errors
                == "<test>:1:10: error: settings.appearance.done failed: 'appearance.done' is not active: no router shows appearance (router shows profile)\n"
        )
    }

    @Test func aTraceAndASequenceDiagramNameAnEmitterByItsCommand() async throws {
        let run = try await Transcript.run(
            try await settings(), ["settings.open-appearance", "settings.appearance.theme value=dark", ":trace 2", ":seq 1-2"],
            options: .plain(quiet: true))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("trace  #2 settings.appearance.theme:\n  settings.appearance.theme  ok"), "\(run.output)")
        #expect(run.output.contains("│ settings.open-appearance"), "\(run.output)")
        #expect(run.output.contains("│ settings.appearance.theme"), "\(run.output)")
        #expect(!run.output.contains("Emit"), "no action type stands for a command: \(run.output)")
    }

    @Test func commandsCompleteAndHintPartByPart() async throws {
        let completer = Completer(catalog: try await settings().catalog)
        // The common part is inserted, up to where the paths part; the commands under it are listed.
        #expect(
            completer.complete("settings.app")
                == .init(insert: "earance.", candidates: ["settings.appearance.theme", "settings.appearance.size", "settings.appearance.done"]))
        #expect(completer.complete("settings.appearance.t") == .init(insert: "heme ", candidates: []))
        #expect(completer.complete("settings.appearance.theme value=d") == .init(insert: "ark ", candidates: []))
        #expect(completer.hint(for: "settings.appearance.size") == "value=Int")
        #expect(completer.hint(for: "settings.appearance.done") == nil)
    }
}
