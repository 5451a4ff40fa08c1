import Foundation
import Testing

@testable import KarcLanguage
@testable import KarcSession
@testable import KarcShell

@Suite("Completion and hints at the prompt", .timeLimit(.minutes(1)))
struct CompleterTests {
    let completer = Completer(
        catalog: Catalog(targets: [
            TargetSchema(name: "counter", kind: "store", commands: [CommandSchema(Increment.self), CommandSchema(Reset.self)]),
            TargetSchema(name: "identity", kind: "store", commands: [CommandSchema(RegisterUser.self)]),
        ]))

    @Test func targetsCompleteWithTheirDot() {
        #expect(completer.complete("cou") == .init(insert: "nter.", candidates: []))
        #expect(completer.complete("") == .init(insert: "", candidates: ["counter", "identity"]))
        #expect(completer.complete("x") == .init(insert: "", candidates: []))
    }

    @Test func commandsCompleteWithASpace() {
        #expect(completer.complete("counter.i") == .init(insert: "ncrement ", candidates: []))
        #expect(completer.complete("counter.") == .init(insert: "", candidates: ["counter.increment", "counter.reset"]))
    }

    @Test func fieldsCompleteWithTheirEqualsSignAndSkipThoseGiven() {
        #expect(completer.complete("identity.register-user user-e") == .init(insert: "mail=", candidates: []))
        #expect(completer.complete("identity.register-user user-email=a user-") == .init(insert: "password=", candidates: []))
        #expect(completer.complete("identity.register-user u").candidates == ["user-email", "user-password"])
        #expect(completer.complete("identity.register-user u").insert == "ser-")
    }

    @Test func choicesAndBooleansComplete() {
        #expect(completer.complete("identity.register-user mood=g") == .init(insert: "rumpy ", candidates: []))
        #expect(completer.complete("identity.register-user is-admin=t") == .init(insert: "rue ", candidates: []))
        #expect(completer.complete("identity.register-user age=1") == .init(insert: "", candidates: []))
    }

    @Test func metaCommandsComplete() {
        #expect(completer.complete(":he") == .init(insert: "lp ", candidates: []))
        #expect(completer.complete(":s").candidates == [":state", ":sleep", ":source", ":save"])
    }

    @Test func aCompleteCommandHintsItsFields() {
        #expect(completer.hint(for: "counter.increment") == "[value=Int, default 1]")
        #expect(completer.hint(for: "counter.increment ") == "[value=Int, default 1]")
        #expect(completer.hint(for: "counter.increment value=2") == nil)
        #expect(completer.hint(for: "counter.reset") == nil)
        #expect(completer.hint(for: "counter.incr") == nil)
        #expect(completer.hint(for: "identity.register-user")?.hasPrefix("user-email=String user-password=String [age=Int]") == true)
    }
}

extension CompleterTests {
    var withEvents: Completer {
        Completer(
            catalog: Catalog(targets: [
                TargetSchema(name: "counter", kind: "store", commands: [CommandSchema(Increment.self)], events: ["Counted", "CounterReset"]),
                TargetSchema(name: "identity", kind: "store", commands: [CommandSchema(RegisterUser.self)]),
            ]), events: { ["Seen.LoggedIn"] })
    }

    @Test func metaCommandArgumentsComplete() {
        #expect(withEvents.complete(":help co") == .init(insert: "unter", candidates: []))
        #expect(withEvents.complete(":help counter.i") == .init(insert: "ncrement ", candidates: []))
        #expect(withEvents.complete(":state i") == .init(insert: "dentity ", candidates: []))
        #expect(withEvents.complete(":wait Count").candidates == ["Counted", "CounterReset"])
        #expect(withEvents.complete(":wait Lo") == .init(insert: "ggedIn ", candidates: []))
        #expect(withEvents.complete(":events o").candidates == ["on", "off", "only"])
        #expect(withEvents.complete(":events only Counte").candidates == ["Counted", "CounterReset"])
        #expect(withEvents.complete(":timing o").candidates == ["on", "off"])
    }

    @Test func sourceCompletesFilePaths() throws {
        let directory = NSTemporaryDirectory() + "karc-complete-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/scripts", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/scripts/tour.karc", contents: Data())
        _ = FileManager.default.createFile(atPath: directory + "/scripts/errors.karc", contents: Data())
        #expect(completer.complete(":source \(directory)/scr") == .init(insert: "ipts/", candidates: []))
        #expect(completer.complete(":source \(directory)/scripts/t") == .init(insert: "our.karc", candidates: []))
        #expect(
            completer.complete(":source \(directory)/scripts/").candidates == ["\(directory)/scripts/errors.karc", "\(directory)/scripts/tour.karc"])
    }
}
