import KarcLanguage
import Testing

@testable import KarcAttach

/// `:help` at an attached prompt whose app is away answers from what the
/// app last said: every target, or the one (or the command) asked for.
@Suite(.timeLimit(.minutes(1))) struct OfflineHelpTests {
    struct Increment: Codable, Sendable {
        var value = 1
    }

    struct Reset: Codable, Sendable {}

    let summary = CatalogSummary(
        Catalog(targets: [
            TargetSchema(name: "counter", kind: "store", commands: [CommandSchema(Increment.self), CommandSchema(Reset.self)]),
            TargetSchema(name: "auth", kind: "model", commands: []),
        ]))

    @Test func helpOfATargetIsThatTargetsCommands() {
        let text = AttachFront.help(summary, topic: "counter")
        #expect(text.hasPrefix("Offline: counter (store), as the app last said:\n  counter.increment "), "\(text)")
        #expect(text.contains("  counter.reset"))
        #expect(!text.contains("auth"))
    }

    @Test func helpOfACommandIsThatCommand() {
        let text = AttachFront.help(summary, topic: "counter.reset")
        #expect(text.split(separator: "\n").count == 2, "\(text)")
        #expect(text.contains("counter.reset"))
    }

    @Test func aTopicTheAppDidNotHaveIsSaidSo() {
        #expect(AttachFront.help(summary, topic: "bogus") == "Offline: the app had no target 'bogus' when it last said; targets: counter, auth\n")
        #expect(
            AttachFront.help(summary, topic: "counter.bogus")
                == "Offline: counter had no command 'bogus' when the app last said; commands: increment, reset\n")
        #expect(AttachFront.help(summary).hasPrefix("Offline: the app's targets and commands, as it last said:\n"))
    }
}
