import CustomDump
import Foundation
import Testing

@testable import KarcRendering
@testable import KarcSession
@testable import KarcShell

/// The shell's dumper must print exactly what custom-dump prints: a corpus of
/// shapes, each compared with `String(customDumping:)`.
@Suite("Dumper: custom-dump's text, without its cost", .timeLimit(.minutes(1)))
struct DumperTests {
    struct Counter { var count: Int }
    struct Empty {}
    struct Profile {
        var name: String
        var tags: [String]
        var nickname: String?
    }
    struct Wrapper<Value> { var value: Value }
    struct Nested {
        var inner: Inner
        struct Inner { var flag: Bool }
    }
    enum Status: CaseIterable { case idle, busy }
    enum Event {
        case added(Int)
        case renamed(from: String, to: String)
        case moved(x: Int)
        case cleared
        case nested(Nested)
        case pair(Int, String)
    }
    indirect enum Tree {
        case leaf(Int)
        case node(Tree, Tree)
    }
    final class Node {
        var name: String
        var next: Node?
        init(_ name: String, next: Node? = nil) {
            self.name = name
            self.next = next
        }
    }
    class Base { var id = 1 }
    final class Derived: Base { var label = "d" }
    struct Described: CustomDumpStringConvertible { var customDumpDescription: String { "custom!" } }
    struct MultiLineDescribed: CustomDumpStringConvertible { var customDumpDescription: String { "line 1\nline 2" } }
    struct Represented: CustomDumpRepresentable { var customDumpValue: Any { [1, 2] } }
    struct Reflected: CustomDumpReflectable {
        var secret = 42
        var customDumpMirror: Mirror { Mirror(self, children: ["shown": "yes", "_$hidden": 1], displayStyle: .struct) }
    }
    struct Macroish {
        var value = 1
        var _$observationRegistrar = 0
    }
    struct Holder {
        var described: Described
        var one: MultiLineDescribed
    }
    struct WithType { var type: Any.Type = Int.self }
    struct Tuples {
        var pair: (Int, String) = (1, "a")
        var named: (x: Int, y: Int) = (x: 1, y: 2)
    }

    // Computed: `Any` is not Sendable, so each test builds its own.
    static var corpus: [(String, Any)] {
        [
            ("an Int", 42), ("a negative Double", -1.5), ("a Bool", true), ("a Character", Character("x")),
            ("a plain string", "hello"), ("an empty string", ""), ("a string with quotes", #"say "hi""#),
            ("a string with a backslash", #"a\b"#), ("a string with a hash after a quote", ##"x "# y"##),
            ("a string with tabs and unicode", "tab\there é 😀"),
            ("a multi-line string", "one\ntwo"), ("a multi-line string with triple quotes", "a\n\"\"\"#\nb"),
            ("a substring", "hello world".prefix(5)),
            ("a one-field struct", Counter(count: 2)), ("an empty struct", Empty()),
            ("a struct with an array and an optional", Profile(name: "Jill", tags: ["a", "b"], nickname: nil)),
            ("a struct with a set optional", Profile(name: "J", tags: [], nickname: "jj")),
            ("a generic struct", Wrapper(value: Wrapper(value: 3))), ("a generic struct of a struct", Wrapper(value: Counter(count: 1))),
            ("nested types", Nested(inner: .init(flag: false))),
            ("an enum case at the root", Status.busy), ("enum cases inside", [Status.idle, .busy]),
            ("an enum with a payload", Event.added(1)), ("labelled payloads", Event.renamed(from: "a", to: "b")),
            ("one labelled payload", Event.moved(x: 3)), ("a case without payload", Event.cleared),
            ("a struct payload", Event.nested(Nested(inner: .init(flag: true)))), ("two unlabelled payloads", Event.pair(1, "x")),
            ("an indirect enum", Tree.node(.leaf(1), .node(.leaf(2), .leaf(3)))),
            ("an optional some", Optional(5) as Any), ("an optional none", Optional<Int>.none as Any),
            ("a nested optional", Optional(Optional(Counter(count: 1))) as Any),
            ("an array", [1, 2, 3]), ("an empty array", [Int]()), ("an array of structs", [Counter(count: 1), Counter(count: 2)]),
            ("a dictionary", ["b": 2, "a": 1, "c": 3]), ("an empty dictionary", [String: Int]()),
            ("a dictionary of structs", [1: Counter(count: 1), 0: Counter(count: 0)]),
            ("a set", Set(["z", "y", "x"])), ("an empty set", Set<Int>()),
            ("a tuple", (1, "two")), ("a labelled tuple", (a: 1, b: [2])),
            ("a class", Node("a")),
            (
                "a class graph with a repeat and a cycle",
                { () -> Node in
                    let last = Node("c")
                    let first = Node("a", next: Node("b", next: last))
                    last.next = first
                    return first
                }()
            ),
            (
                "two references to one object",
                { () -> [Node] in
                    let node = Node("x")
                    return [node, node]
                }()
            ),
            ("a subclass", Derived()),
            ("CustomDumpStringConvertible", Described()), ("a multi-line description inside", Holder(described: .init(), one: .init())),
            ("CustomDumpRepresentable", Represented()), ("CustomDumpReflectable", Reflected()),
            ("macro storage is hidden", Macroish()), ("a metatype", Counter.self), ("a metatype field", WithType()),
            ("tuples in a struct", Tuples()),
            ("a UUID", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") as Any), ("a Date", Date(timeIntervalSince1970: 0)),
            ("a URL", URL(string: "https://example.com/a?b=c") as Any), ("a Result", Result<Int, CancellationError>.success(1)),
            ("an error", CancellationError()), ("an ObjectIdentifier-free Duration", Duration.seconds(2)),
            ("a deep mixture", [Wrapper(value: [Event.renamed(from: "x", to: "y")])]),
            ("a dictionary inside an enum", Wrapper(value: ["k": Event.pair(2, "v")])),
            ("an optional convertible", Optional(Described()) as Any), ("a nil convertible", Optional<Described>.none as Any),
            ("an optional character", Optional(Character("c")) as Any), ("an optional enum at the root", Optional(Status.idle) as Any),
            ("an optional object", Optional(Node("o")) as Any), ("an optional metatype", Optional(Int.self as Any.Type) as Any),
            ("a multi-line string field", Wrapper(value: "first\nsecond")), ("a multi-line string in a list", ["a\nb", "c"]),
            ("a quoted string field", Wrapper(value: #"a "b" c"#)), ("an optional string field", Wrapper(value: Optional("x"))),
            ("numbers of every width", [Int8(1), Int16(2), Int32(3), Int64(4)] as [Any]), ("unsigned and float", (UInt8(1), Float(1.5))),
        ]
    }

    @Test("prints what custom-dump prints", arguments: 0..<corpus.count)
    func printsWhatCustomDumpPrints(index: Int) {
        let (name, value) = Self.corpus[index]
        #expect(Dumper.dump(value) == String(customDumping: value), "\(name)")
    }

    @Test func typeNamesDropModulesAndGenericsAndAbbreviateContainers() {
        #expect(Dumper.typeName(Counter.self) == "DumperTests.Counter")
        #expect(Dumper.typeName(Wrapper<[Int?]>.self) == "DumperTests.Wrapper")
        #expect(Dumper.typeName([String: Int?].self) == "[String: Int?]")
        #expect(Dumper.typeName(Int?.self) == "Int?")
        // Twice: the second comes from the cache and must be the same.
        #expect(Dumper.typeName(Profile.self) == Dumper.typeName(Profile.self))
    }
}

/// Dates written without custom-dump's formatter, to the letter of it.
@Suite("Date dump", .timeLimit(.minutes(1)))
struct DateDumpTests {
    @Test(arguments: [
        0, 1, -1, 0.001, 0.0009, 0.9999, -0.0005, 59.999, 86_399.5, 951_782_400.123,  // 2000-02-29
        1_700_000_000.25, -2_208_988_800, -12_212_553_600, 253_402_300_799.999, 4_102_444_800, 0.0005, 1.0005, -1.0005,
    ])
    func aDateReadsAsCustomDumpWritesIt(_ interval: Double) {
        let date = Date(timeIntervalSince1970: interval)
        #expect(DateDump.text(date) == String(customDumping: date))
    }

    @Test func randomDatesReadAsCustomDumpWritesThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: -12_212_553_600...253_402_300_799, using: &generator))
            #expect(DateDump.text(date) == String(customDumping: date), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func datesBefore1583OrAfter9999AreLeftToCustomDump() {
        // Before 1583 ICU counts in the Julian calendar.
        #expect(DateDump.text(Date(timeIntervalSince1970: -12_212_553_601)) == nil)
        #expect(Dumper.dump(Date(timeIntervalSince1970: -62_135_596_800)) == String(customDumping: Date(timeIntervalSince1970: -62_135_596_800)))
        #expect(DateDump.text(Date(timeIntervalSince1970: 253_402_300_800)) == nil)
        #expect(DateDump.text(Date(timeIntervalSince1970: .infinity)) == nil)
        #expect(Dumper.dump(Date.distantFuture) == String(customDumping: Date.distantFuture))
    }
}
