import Foundation
import Testing

@testable import KarcLanguage
@testable import KarcRendering
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
        #expect(completer.complete(":s").candidates == [":state", ":sleep", ":seq", ":snapshot", ":snapshots", ":source", ":save"])
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

    @Test func restoreCompletesTheNamesOfTheSnapshotsKept() {
        let kept = Completer(catalog: Catalog(targets: []), snapshots: { ["before-login", "before-logout", "fresh"] })
        #expect(kept.complete(":restore f") == .init(insert: "resh ", candidates: []))
        #expect(kept.complete(":restore be") == .init(insert: "fore-log", candidates: ["before-login", "before-logout"]))
        #expect(kept.complete(":restore ").candidates == ["before-login", "before-logout", "fresh"])
        #expect(kept.complete(":snapshot save fr") == .init(insert: "esh ", candidates: []), "the name :snapshot save writes")
        #expect(kept.complete(":restore fresh x") == .init(insert: "", candidates: []), ":restore takes one name")
        #expect(completer.complete(":restore ") == .init(insert: "", candidates: []), "none kept: nothing")
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

/// `:state TARGET PATH<Tab>`: the next step of a path into the state as it is now.
@Suite("Completing a path into a state", .timeLimit(.minutes(1)))
struct StatePathCompletionTests {
    struct Article: Equatable, Sendable {
        var title: String
        var tags: [String: Int]
    }

    struct Articles: Equatable, Sendable {
        var items: [Article]
        var total: Int
    }

    let state = Articles(items: [Article(title: "a", tags: ["env": 1, "tier": 2]), Article(title: "b", tags: [:])], total: 2)

    @Test(arguments: [
        ("", ["items", "total"]),
        ("i", ["items"]),
        ("items", ["items"]),
        ("items[", ["items[0]", "items[1]"]),
        ("items[1", ["items[1]"]),
        ("items[0].", ["items[0].title", "items[0].tags"]),
        ("items[0].t", ["items[0].title", "items[0].tags"]),
        ("items[0].ti", ["items[0].title"]),
        ("items[0].tags[", [#"items[0].tags["env"]"#, #"items[0].tags["tier"]"#]),
        ("items[0].tags[\"t", [#"items[0].tags["tier"]"#]),
        ("items[7].", []),
        ("nothing.", []),
        ("total.", []),
    ])
    func theNextStepsStartWithWhatIsTyped(typed: String, expected: [String]) {
        #expect(StatePath.completions(in: state, typed: typed) == expected)
    }

    @Test func stateCompletesItsTargetsPathWithNoSpaceAfterIt() {
        let catalog = Catalog(targets: [TargetSchema(name: "articles", kind: "store", commands: [])])
        let state = self.state
        let completer = Completer(
            catalog: catalog,
            statePaths: { target, typed in target == "articles" ? StatePath.completions(in: state, typed: typed) : [] })
        #expect(completer.complete(":state articles items[0].ti") == .init(insert: "tle", candidates: []))
        #expect(completer.complete(":state Articles to") == .init(insert: "tal", candidates: []), "the target as typed, in any case")
        #expect(completer.complete(":state articles items[0].t").candidates == ["items[0].title", "items[0].tags"])
        #expect(completer.complete(":state nobody x").candidates.isEmpty)
    }

    @Test func watchAndBlameCompleteATargetThenItsPathAsOneWord() {
        let catalog = Catalog(targets: [TargetSchema(name: "articles", kind: "store", commands: [])])
        let state = self.state
        let completer = Completer(
            catalog: catalog,
            statePaths: { target, typed in target == "articles" ? StatePath.completions(in: state, typed: typed) : [] })
        #expect(completer.complete(":watch art") == .init(insert: "icles", candidates: []))
        #expect(completer.complete(":watch articles.items[0].ti") == .init(insert: "tle", candidates: []))
        #expect(completer.complete(":blame articles.items[0].t").candidates == ["articles.items[0].title", "articles.items[0].tags"])
        #expect(completer.complete(":unwatch a").candidates == ["all", "articles"])
    }
}
