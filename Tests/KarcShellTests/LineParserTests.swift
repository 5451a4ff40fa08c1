import Testing

@testable import KarcLanguage
@testable import KarcSession
@testable import KarcShell
@testable import KarcTrace

@Suite("Line parser: the command language", .timeLimit(.minutes(1)))
struct LineParserTests {
    func fields(_ line: String) throws -> [String: ShellValue] {
        guard case .command(let invocation) = try LineParser.parse(line), case .fields(let arguments) = invocation.body else {
            Issue.record("not a command with fields: \(line)")
            return [:]
        }
        return Dictionary(uniqueKeysWithValues: arguments.map { ($0.name.value, $0.value.value) })
    }

    func error(_ line: String) -> LineError? {
        do {
            _ = try LineParser.parse(line)
            return nil
        } catch {
            return error
        }
    }

    @Test func blankLinesAndCommentsAreEmpty() throws {
        #expect(try LineParser.parse("") == .empty)
        #expect(try LineParser.parse("   \t ") == .empty)
        #expect(try LineParser.parse("  # counter.increment") == .empty)
    }

    @Test func aCommandNamesItsTargetAndCommandWithColumns() throws {
        guard case .command(let invocation) = try LineParser.parse("  counter.increment value=2 # two") else {
            Issue.record("not a command")
            return
        }
        #expect(invocation.target == Located("counter", column: 3))
        #expect(invocation.command == Located("increment", column: 11))
        #expect(invocation.body == .fields([FieldArgument(name: Located("value", column: 21), value: Located(.int(2, text: "2"), column: 27))]))
    }

    @Test func everyKindOfValueParses() throws {
        let values = try fields(
            #"t.c a=42 b=-1.5 c=true d=false e=nil f="say \"hi\"\n" g=bare@word.com h=[1, "two", [3]] i={"k": [1, {"x": "}"}]} j=é"#)
        #expect(values["a"] == .int(42, text: "42"))
        #expect(values["b"] == .decimal(-1.5, text: "-1.5"))
        #expect(values["c"] == .bool(true))
        #expect(values["d"] == .bool(false))
        #expect(values["e"] == .null)
        #expect(values["f"] == .string("say \"hi\"\n", quoted: true))
        #expect(values["g"] == .string("bare@word.com", quoted: false))
        #expect(
            values["h"]
                == .list([
                    Located(.int(1, text: "1"), column: 74), Located(.string("two", quoted: true), column: 77),
                    Located(.list([Located(.int(3, text: "3"), column: 85)]), column: 84),
                ]))
        #expect(values["i"] == .json(#"{"k": [1, {"x": "}"}]}"#))
        #expect(values["j"] == .string("é", quoted: false))
    }

    @Test func unicodeEscapesAndEmptyStringsParse() throws {
        let values = try fields(#"t.c a="\u{1F600}" b="" c=[]"#)
        #expect(values["a"] == .string("😀", quoted: true))
        #expect(values["b"] == .string("", quoted: true))
        #expect(values["c"] == .list([]))
    }

    @Test func aJSONBodyIsKeptWhole() throws {
        guard case .command(let invocation) = try LineParser.parse(#"articles.add {"title": "Hello world"}  "#) else {
            Issue.record("not a command")
            return
        }
        #expect(invocation.body == .json(Located(#"{"title": "Hello world"}"#, column: 14)))
    }

    @Test func metaCommandsSplitTheirArguments() throws {
        #expect(
            try LineParser.parse(#":wait ReceivedMessage 5s"#)
                == .meta(
                    name: Located("wait", column: 2),
                    arguments: [Located("ReceivedMessage", column: 7), Located("5s", column: 23)]))
        #expect(
            try LineParser.parse(#":source "my script.karc""#)
                == .meta(
                    name: Located("source", column: 2), arguments: [Located("my script.karc", column: 9)]))
    }

    @Test(arguments: [
        ("counter", 1, "expected TARGET.COMMAND"),
        (".increment", 1, "missing target name"),
        ("counter.", 9, "missing command name after 'counter.'"),
        ("counter.increment value", 19, "expected field=value, got 'value'"),
        ("counter.increment value=", 25, "missing value after 'value='"),
        ("counter.increment =3", 19, "missing field name"),
        (#"t.c a="open"#, 7, "unterminated string"),
        (#"t.c a="bad \q""#, 12, #"invalid escape '\q'"#),
        (#"t.c a="\u{110000}""#, 8, "invalid escape"),
        ("t.c a=[1, 2", 7, "unterminated list"),
        ("t.c a=[1 2]", 10, "expected ',' or ']'"),
        (#"t.c a={"k": 1"#, 7, "unterminated JSON object"),
        (#"t.c a=x"y"#, 8, "quote the whole value"),
        (":", 2, "expected a meta command"),
    ])
    func badLinesSayWhatAndWhere(_ line: String, _ column: Int, _ message: String) {
        let error = error(line)
        #expect(error?.column == column, "\(line): \(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(line): \(String(describing: error))")
    }

    @Test func deeplyNestedListsAreRefusedNotOverflowed() {
        let line = "t.c a=" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(error(line)?.message.contains("nest deeper than 32") == true)
    }

    @Test func randomAndHostileInputNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"ab.=:"\[]{},# 1-é😀\u{0}"#)
        for _ in 0..<5_000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let line = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            _ = try? LineParser.parse(line)
        }
        _ = try? LineParser.parse("t.c a=" + String(repeating: "x", count: 1_000_000))
        _ = try? LineParser.parse(String(decoding: [0xFF, 0xFE, 0x2E, 0x3D, 0xC3], as: UTF8.self))
        _ = try? LineParser.parse("t.c " + String(repeating: "{", count: 100_000))
    }
}
