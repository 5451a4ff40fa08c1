import CustomDump
import KarcRendering

/// How a generated test writes the values it sends and expects: as Swift
/// where the type's initializer is known (`@Command`, `@Memberwise`, an
/// enum's cases), else decoded from JSON, else (an event or a state that is
/// not `Equatable`) compared by its dump. Each type written another way than
/// Swift is named once, in a comment above its first use, with why.
package struct TestValues {
    package let indent: String
    /// Where an expression breaks onto more lines: the test's lines are indented once more.
    package var width = 116
    /// The types a note was written for.
    private var noted: Set<String> = []
    /// Notes for the step being written, taken by ``takeNotes()``.
    private var notes: [String] = []
    /// The modules of the types the values written name: the test imports them.
    package private(set) var modules: Set<String> = []

    package init(indent: String) {
        self.indent = indent
    }

    /// The comments for the step just written.
    package mutating func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    /// A command: Swift, else decoded from its JSON; nil when it is neither.
    package mutating func command(_ command: any Sendable) -> String? {
        if let swift = swift(command) { return swift.written(indent: "", width: width) }
        guard let json = SwiftLiteral.json(command) else { return nil }
        decodes(command)
        note(command, "has no initializer karc can see (mark it @Command or @Memberwise): it is decoded from its JSON")
        return "try decoded(\(ValueText.typeName(command)).self, json: \(SwiftLiteral.string(json, indent: indent)))"
    }

    /// That `reply` (the variable) is `reply`: as its type, equal to it
    /// written as Swift (`expectNoDifference(reply as? String, "sent: hi")`),
    /// else by its dump.
    package mutating func reply(_ reply: any Sendable) -> String {
        if reply is any Equatable, let expression = swift(reply) {
            return SwiftExpression.call("expectNoDifference", [(nil, .atom("reply as? \(ValueText.typeName(reply))")), (nil, expression)])
                .written(indent: "", width: width)
        }
        note(
            reply,
            reply is any Equatable
                ? "has no initializer karc can see (mark it @Memberwise): the reply is compared by its dump"
                : "is not Equatable: the reply is compared by its dump")
        return "expectNoDifference(String(customDumping: reply), \(SwiftLiteral.string(String(customDumping: reply), indent: indent)))"
    }

    /// `await store.receive(EVENT, from: SOURCE)`, or by its dump.
    package mutating func event(_ event: any Sendable, from source: String) -> String {
        if event is any Equatable, let expression = swift(event) {
            return SwiftExpression.call("await store.receive", [(nil, expression), ("from", .string(source))]).written(indent: "", width: width)
        }
        note(
            event,
            event is any Equatable
                ? "has no initializer karc can see (mark it @Memberwise): it is compared by its dump" : "is not Equatable: it is compared by its dump"
        )
        return
            "await store.receive(dumped: \(SwiftLiteral.string(String(customDumping: event), indent: indent)), from: \(SwiftLiteral.string(source, indent: indent)))"
    }

    /// The assertion that `target`'s state is `state`: equal to it written
    /// as Swift, or decoded from its JSON, when it is `Equatable`; else dumped the same.
    package mutating func state(_ target: String, _ state: any Sendable) -> String {
        if state is any Equatable {
            if let expression = swift(state) {
                return SwiftExpression.call("await store.expectState", [(nil, .string(target)), ("toBe", expression)]).written(
                    indent: "", width: width)
            }
            if let json = SwiftLiteral.json(state) {
                decodes(state)
                note(state, "has no initializer karc can see (mark it @Memberwise): it is decoded from its JSON")
                return
                    "await store.expectState(\(SwiftLiteral.string(target, indent: indent)), toBe: try decoded(\(ValueText.typeName(state)).self, json: \(SwiftLiteral.string(json, indent: indent))))"
            }
        }
        note(
            state,
            state is any Equatable
                ? "has no initializer karc can see and is not Codable: it is compared by its dump" : "is not Equatable: it is compared by its dump")
        return
            "await store.expectState(\(SwiftLiteral.string(target, indent: indent)), toDump: \(SwiftLiteral.string(String(customDumping: state), indent: indent)))"
    }

    /// `try await store.restore(ClusterSnapshot(states: […]))`, each state
    /// written as Swift, else decoded from its JSON.
    package mutating func restore(_ states: [String: any Sendable], origin: String) throws(TestExport.Unexportable) -> String {
        var entries: [(key: SwiftExpression, value: SwiftExpression)] = []
        for (target, state) in states.sorted(by: { $0.key < $1.key }) {
            if let expression = swift(state) {
                entries.append((.string(target), expression))
                continue
            }
            guard state is any Decodable, let json = SwiftLiteral.json(state) else {
                throw TestExport.Unexportable(
                    message:
                        "cannot write \(origin) as Swift: the state of \(target) (\(ValueText.typeName(state))) is not Codable, so a test cannot restore it"
                )
            }
            decodes(state)
            note(state, "has no initializer karc can see (mark it @Memberwise): it is decoded from its JSON")
            entries.append(
                (.string(target), .atom("try decoded(\(ValueText.typeName(state)).self, json: \(SwiftLiteral.string(json, indent: indent)))")))
        }
        // Always an entry a line, as a snapshot literal is written by hand.
        let lines = entries.map {
            indent + $0.key.written(indent: indent, width: width) + ": " + $0.value.written(indent: indent, width: width) + ","
        }
        return "try await store.restore(ClusterSnapshot(states: [\n" + lines.joined(separator: "\n") + "\n]))"
    }

    /// `value` as Swift, its types' modules kept for the imports; nil when a part of it is not written so.
    private mutating func swift(_ value: Any) -> SwiftExpression? {
        guard let written = SwiftExpression.written(value, initializer: TestExport.initializer) else { return nil }
        modules.formUnion(written.modules)
        return written.expression
    }

    /// A type named in a `decoded(T.self, …)`: its module is imported.
    private mutating func decodes(_ value: Any) {
        if let module = TestExport.module(of: value) { modules.insert(module) }
    }

    private mutating func note(_ value: Any, _ why: String) {
        let name = ValueText.typeName(value)
        guard noted.insert(name).inserted else { return }
        notes.append("// \(name) \(why).")
    }
}
