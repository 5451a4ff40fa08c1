import CustomDump
import KarcCommand
import Testing

@testable import KarcLanguage
@testable import KarcOutput
@testable import KarcRendering
@testable import KarcSession
@testable import KarcShell

@Suite("Shell parts: durations, colours, event filters, history path", .timeLimit(.minutes(1)))
struct ShellPartsTests {
    @Test(arguments: [("250ms", 250), ("2s", 2_000), ("1.5s", 1_500), ("1m", 60_000), ("2h", 7_200_000), ("24h", 86_400_000), ("0s", 0)])
    func durationsParse(_ text: String, _ milliseconds: Int64) {
        #expect(ShellDuration.parse(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: ["", "5", "soon", "-1s", "25h", "1441m", "1e9s", "nans", "infs"])
    func badDurationsAreRefused(_ text: String) {
        #expect(ShellDuration.parse(text) == nil)
    }

    @Test func durationsAreWrittenBackShort() {
        #expect(ShellDuration.describe(.milliseconds(250)) == "250ms")
        #expect(ShellDuration.describe(.seconds(5)) == "5s")
        #expect(ShellDuration.describe(.seconds(120)) == "2m")
        #expect(ShellDuration.describe(.seconds(5_400)) == "90m")
        #expect(ShellDuration.describe(.seconds(7_200)) == "2h")
    }

    @Test func colourIsOnlyAddedWhenEnabled() {
        #expect(Style(isEnabled: false).error("error") == "error")
        #expect(Style(isEnabled: true).error("error") == "\u{1B}[31merror\u{1B}[0m")
    }

    @Test func eventFiltersMatchTypeNamesLoosely() {
        #expect(EventFilter.all.shows("Added"))
        #expect(!EventFilter.none.shows("Added"))
        #expect(EventFilter.only([Names.key("added")]).shows("Added"))
        #expect(!EventFilter.only([Names.key("added")]).shows("Cleared"))
        #expect(!EventFilter.mute([Names.key("received-message")]).shows("ReceivedMessage"))
    }

    @Test func theHistoryFileFollowsXDGUnlessTold() {
        #expect(
            LineEditor.historyPath(option: nil, cluster: "demo", environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/u"])
                == "/state/karc/demo.history")
        #expect(LineEditor.historyPath(option: nil, cluster: "shop", environment: ["HOME": "/home/u"]) == "/home/u/.local/state/karc/shop.history")
        #expect(
            LineEditor.historyPath(option: nil, cluster: "shop", environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"])
                == "/home/u/.local/state/karc/shop.history")
        #expect(LineEditor.historyPath(option: nil, cluster: "../x", environment: ["XDG_STATE_HOME": "/state"]) == "/state/karc/_.._x.history")
        #expect(LineEditor.historyPath(option: "/tmp/h", cluster: "demo", environment: [:]) == "/tmp/h")
        #expect(LineEditor.historyPath(option: "/dev/null", cluster: "demo", environment: [:]) == nil)
    }
}

@Suite("State summaries", .timeLimit(.minutes(1)))
struct StateSummaryTests {
    struct Article: Equatable {
        var id: Int
        var title: String
    }
    struct Articles: Equatable {
        var items: [Article]
        var nextID: Int
        var tags: [String: Int]
    }

    @Test func partsAreFieldsAndTheElementsOfCollections() {
        let before = Articles(items: (1...2000).map { Article(id: $0, title: "t\($0)") }, nextID: 2001, tags: ["a": 1, "b": 2])
        var after = before
        after.items.append(Article(id: 2001, title: "new"))
        after.nextID = 2002
        after.tags["b"] = 3
        #expect(StateSummary.count(before, after) == .init(changed: 3, unchanged: 2001))
        #expect(StateSummary.describe(StateSummary.count(before, after)) == "3 changed, 2,001 unchanged")
        #expect(StateSummary.count(before, before) == .init(changed: 0, unchanged: 2003))
        #expect(StateSummary.count([1, 2, 3], [1, 5]) == .init(changed: 2, unchanged: 1))
        #expect(StateSummary.count(1, 2) == .init(changed: 1, unchanged: 0))
    }
}

@Suite("State paths", .timeLimit(.minutes(1)))
struct StatePathTests {
    @Test func pathsParseIntoFieldsIndexesAndKeys() throws {
        #expect(try StatePath.parse("items[3].title").get() == [.field("items"), .index(3), .field("title")])
        #expect(try StatePath.parse(#"tags["env"]"#).get() == [.field("tags"), .key("env")])
        #expect(try StatePath.parse("tags[env].x").get() == [.field("tags"), .key("env"), .field("x")])
    }

    @Test(arguments: [("items[", 6, "unclosed '['"), ("items.", 7, "ends with '.'"), ("items[]", 6, "empty '[]'"), ("", 1, "an empty path")])
    func aBadPathSaysWhere(path: String, offset: Int, message: String) {
        guard case .failure(let error) = StatePath.parse(path) else {
            Issue.record("\(path) parsed")
            return
        }
        #expect(error.offset == offset)
        #expect(error.message.contains(message))
    }

    @Test func aDictionaryValueIsPickedByItsKey() throws {
        struct State { var tags: [String: Int] }
        let found = try StatePath.resolve(State(tags: ["env": 2]), StatePath.parse(#"tags["env"]"#).get()).get()
        #expect(found as? Int == 2)
        guard case .failure(let error) = StatePath.resolve(State(tags: ["env": 2]), try StatePath.parse("tags[emv]").get()) else {
            Issue.record("found a missing key")
            return
        }
        #expect(error.message == "no key emv in tags; did you mean 'env'? Keys: env")
        guard case .failure(let empty) = StatePath.resolve(State(tags: [:]), try StatePath.parse("tags[\"x\"]").get()) else {
            Issue.record("a key of an empty dictionary was found")
            return
        }
        #expect(empty.message == "no key x in tags: it is empty")
        guard case .failure(let field) = StatePath.resolve(State(tags: ["env": 2]), try StatePath.parse("tags.env").get()) else {
            Issue.record("a dictionary's value was found as a field")
            return
        }
        #expect(field.message == #"tags is a dictionary: a value is picked by its key, tags["env"]"#)
        #expect(field.neverThere)
    }

    /// A quoted key is read as completion writes it: a space, a quote
    /// (escaped) or a `]` inside it are the key's.
    @Test func aQuotedKeyKeepsItsSpacesQuotesAndBrackets() throws {
        #expect(try StatePath.parse(#"items["a b"].count"#).get() == [.field("items"), .key("a b"), .field("count")])
        #expect(try StatePath.parse(#"items["say \"hi\""]"#).get() == [.field("items"), .key(#"say "hi""#)])
        #expect(try StatePath.parse(#"items["a]b"]"#).get() == [.field("items"), .key("a]b")])
        guard case .failure(let open) = StatePath.parse(#"items["a b]"#) else {
            Issue.record("an unclosed quoted key was read")
            return
        }
        #expect(open.message == #"unclosed '["' in the path: a quoted key ends with "]"#)
        // What a path writes of a key (a change's path, a completion) reads back as that key, escapes and all.
        for key in ["a\nb", #"x"y"#, #"back\slash"#, "tab\tand\u{1B}escape"] {
            #expect(try StatePath.parse(StatePath.text([.field("tags"), .key(key)])).get() == [.field("tags"), .key(key)], "\(key)")
        }
        struct Tagged { var tags: [String: Int] }
        #expect(StatePath.completions(in: Tagged(tags: [#"x"y"#: 1]), typed: "tags[") == [#"tags["x\"y"]"#])
    }

    /// A type that dumps as something else: a path names what `:state` prints.
    struct Secret: CustomDumpReflectable {
        var shown = "public"
        var hidden = "key"
        var customDumpMirror: Mirror { Mirror(self, children: ["shown": shown], displayStyle: .struct) }
    }

    @Test func aPathNamesWhatTheDumpPrints() throws {
        struct State { var secret = Secret() }
        #expect(try StatePath.resolve(State(), StatePath.parse("secret.shown").get()).get() as? String == "public")
        guard case .failure(let error) = StatePath.resolve(State(), try StatePath.parse("secret.hidden").get()) else {
            Issue.record("a path reached a field the dump leaves out")
            return
        }
        #expect(error.message == "no field 'hidden' in secret. Fields: shown")
    }

    @Test func aSummaryCountsWhatTheDumpPrints() {
        #expect(StateSummary.count(Secret(), Secret(shown: "public", hidden: "other")) == .init(changed: 0, unchanged: 1))
        #expect(StateSummary.count(Secret(), Secret(shown: "other")) == .init(changed: 1, unchanged: 0))
    }
}

@Suite("JSON patches", .timeLimit(.minutes(1)))
struct JSONPatchUnitTests {
    func patch(_ old: String, _ new: String) throws -> String {
        let operations = JSONPatch.patch(from: JSONText.Node(json: RawJSON(text: old)), to: JSONText.Node(json: RawJSON(text: new)))
        return JSONLine.write(["p": operations])
    }

    @Test func scalarsAreWrittenAsJSONAndTrueIsNotOne() throws {
        #expect(
            try patch(#"{"a":1,"b":"x","c":null,"d":true}"#, #"{"a":true,"b":"y\"z","c":2.5,"d":1}"#)
                == #"{"p":[{"op":"replace","path":"/a","value":true},{"op":"replace","path":"/b","value":"y\"z"},{"op":"replace","path":"/c","value":2.5},{"op":"replace","path":"/d","value":1}]}"#
        )
    }

    @Test func keysAreEscapedAsJSONPointers() throws {
        #expect(try patch(#"{}"#, #"{"a/b~c":[1]}"#) == #"{"p":[{"op":"add","path":"/a~1b~0c","value":[1]}]}"#)
    }

    @Test func anArrayKeepsItsCommonEnds() throws {
        #expect(try patch("[1,2,3,4]", "[1,9,3,4,5]") == #"{"p":[{"op":"replace","path":"/1","value":9},{"op":"add","path":"/4","value":5}]}"#)
        #expect(try patch("[1,2,3,4]", "[1,4]") == #"{"p":[{"op":"remove","path":"/2"},{"op":"remove","path":"/1"}]}"#)
    }
}

@Suite("Session records", .timeLimit(.minutes(1)))
struct SessionRecordTests {
    @Test(arguments: [
        ("counter.increment", true), ("  :state counter", true), (":SAVE x", false), (" :quit", false), (":q", false),
        ("# a comment", false), ("   ", false), ("", false), (":sleep 1s", true), (":savex y", true),
        (":export-test T.swift", false), (":EXIT", false), (":h", true),
    ])
    func whatAReplayKeeps(line: String, kept: Bool) {
        #expect(SessionRecord.isKept(line) == kept)
    }
}

/// How a generated test writes a command: a struct with a known initializer as a call of it, else decoded from its JSON.
@Suite("Commands written as Swift", .timeLimit(.minutes(1)))
struct SwiftLiteralCommandTests {
    struct Loose: Codable, Sendable { var title: String }

    @Test func aStructWithoutAKnownInitializerIsDecodedFromItsJSON() {
        let decoded = ##"try decoded(SwiftLiteralCommandTests.Loose.self, json: #"{"title":"a"}"#)"##
        #expect(SwiftLiteral.value(Loose(title: "a"), indent: "") == decoded)
        #expect(
            SwiftLiteral.value(Loose(title: "a"), indent: "", initializer: { _ in [.init(label: "title", field: "title")] })
                == #"SwiftLiteralCommandTests.Loose(title: "a")"#)
        #expect(
            SwiftLiteral.value(Loose(title: "a"), indent: "", initializer: { _ in [.init(label: "name", field: "name")] }) == decoded,
            "labels that are not its fields")
    }
}
