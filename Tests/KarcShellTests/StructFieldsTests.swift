import CustomDump
import Foundation
import Testing

@testable import KarcRendering
@testable import KarcSession
@testable import KarcShell

/// A plain struct's children, read from its bytes, are exactly its mirror's;
/// every shape whose mirror is not the default one, or whose fields are not
/// stored as their type, is left to its mirror.
@Suite("Struct fields: a mirror's children without the mirror", .timeLimit(.minutes(1)))
struct StructFieldsTests {
    final class Box { var value = 1 }
    protocol Shape {}
    struct Circle: Shape { var radius: Double }
    struct Plain {
        var id: Int
        var title: String
        var tags: [String]
        var nickname: String?
        var box: Box
        var pair: (Int, String)
    }
    struct Nested {
        var inner: Plain
        var flag: Bool
        var empty: Empty
    }
    struct Empty {}
    struct Generic<Value> {
        var value: Value
        var values: [Value]
    }
    struct Dated {
        var at: Date
        var id: UUID
        var url: URL
        var amount: Decimal
    }
    struct WithEnum {
        enum Mode {
            case idle
            case busy(Int)
        }
        var mode: Mode
        var later: Mode?
    }
    struct Weak {
        weak var box: Box?
        var id: Int
    }
    struct Unowned {
        unowned var box: Box
        var id: Int
    }
    struct Existential {
        var shape: any Shape
        var id: Int
    }
    struct Closure { var run: () -> Int }
    struct Metatype { var type: Any.Type }
    struct Custom: CustomReflectable {
        var hidden: Int
        var customMirror: Mirror { Mirror(self, children: ["shown": hidden + 1]) }
    }
    struct DumpCustom: CustomDumpReflectable {
        var hidden: Int
        var customDumpMirror: Mirror { Mirror(self, children: ["shown": hidden]) }
    }

    /// The mirror's children as labels and dumps, to compare two lists of `Any`.
    func described(_ children: [Mirror.Child]) -> [String] {
        children.map { "\($0.label ?? "nil"): \(type(of: $0.value)) = \(String(customDumping: $0.value))" }
    }

    @Test func aPlainStructsChildrenAreItsMirrorsInOrderWithTheirValuesAndTypes() throws {
        let box = Box()
        let plain = Plain(id: 7, title: "a title long enough to live on the heap", tags: ["x", "y"], nickname: nil, box: box, pair: (1, "one"))
        let values: [Any] = [
            plain,
            Nested(inner: plain, flag: true, empty: Empty()),
            Empty(),
            Generic(value: "s", values: ["t", "u"]),
            Generic(value: Circle(radius: 2), values: []),
            Dated(
                at: Date(timeIntervalSinceReferenceDate: 12), id: UUID(), url: URL(string: "https://example.com/a")!, amount: Decimal(string: "1.25")!
            ),
            WithEnum(mode: .busy(3), later: .idle),
        ]
        for value in values {
            let fields = try #require(StructFields.children(of: value), "\(type(of: value))")
            #expect(described(fields) == described(Array(Mirror(reflecting: value).children)))
        }
        // What was read holds its own references: the box is the same instance.
        let read = try #require(StructFields.children(of: plain))
        #expect((read[4].value as? Box) === box)
    }

    @Test func shapesTheMirrorMustReadAreLeftToIt() {
        let box = Box()
        let values: [Any] = [
            Weak(box: box, id: 1), Unowned(box: box, id: 1), Existential(shape: Circle(radius: 1), id: 1),
            Closure(run: { 1 }), Metatype(type: Int.self), Custom(hidden: 1), DumpCustom(hidden: 1),
            box, WithEnum.Mode.busy(1), (1, 2), [1, 2], 5, "text", Optional(Empty()) as Any,
        ]
        for value in values {
            #expect(StructFields.children(of: value) == nil, "\(type(of: value))")
        }
        withExtendedLifetime(box) {}
    }

    /// A dictionary's `any P` values reach the dumper as an `Any` holding the
    /// existential: its bytes are the existential's container (the struct is
    /// boxed when it does not fit in three words), not the struct's. It used to
    /// read them as the struct's and crash.
    @Test func aStructHeldInAnExistentialInsideAnAnyIsReadThroughItsMirror() {
        let large = Plain(id: 1, title: "a title", tags: ["x"], nickname: "n", box: Box(), pair: (2, "b"))
        let shapes: [String: any Sendable] = [
            "large": Dated(at: Date(timeIntervalSince1970: 0), id: UUID(), url: URL(fileURLWithPath: "/"), amount: 1)
        ]
        #expect(ValueText.dump(shapes) == String(customDumping: shapes))
        let held: [String: Any] = ["plain": large]
        #expect(ValueText.dump(held) == String(customDumping: held))
        var changed = held
        changed["plain"] = Plain(id: 2, title: "another", tags: [], nickname: nil, box: Box(), pair: (2, "b"))
        #expect(StateDiff.text(held, changed) == diff(held, changed))
    }

    @Test func dumpsAndDiffsOfStructsReadThisWayAreCustomDumpsText() {
        var old = Nested(inner: Plain(id: 1, title: "t", tags: [], nickname: "n", box: Box(), pair: (1, "a")), flag: false, empty: Empty())
        var new = old
        new.inner.tags.append("added")
        new.flag = true
        #expect(ValueText.dump(new) == String(customDumping: new))
        #expect(StateDiff.text(old, new) == diff(old, new))
        old.inner.nickname = nil
        #expect(StateDiff.text(old, new) == diff(old, new))
    }
}
