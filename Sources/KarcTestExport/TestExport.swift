import CustomDump
import KarcCommand
import KarcRendering

/// A session written as a Swift Testing test against `ClusterTestStore`
/// (TrellisTesting): each command sent as a Swift value, each reply, event,
/// state and `:assert` the session printed asserted in order (as Swift
/// values where their types' initializers are known, ``TestValues``), and
/// each target's state at the end not asserted already.
package struct TestExport {
    /// How the test makes its cluster: an expression of a `Cluster`, with
    /// the store's `clock` in scope (`try await DemoCluster.makeForTesting()`).
    package var factory: String
    /// The modules the test imports beside Testing, CustomDump and TrellisTesting (the cluster's).
    package var imports: [String]
    /// The test function's name.
    package var name: String
    /// Where the session came from, for the header (a script's file name).
    package var source: String

    package init(factory: String, imports: [String], name: String, source: String) {
        self.factory = factory
        self.imports = imports
        self.name = name
        self.source = source
    }

    /// A step the test cannot replay, with why.
    package struct Unexportable: Error {
        package let message: String

        package init(message: String) { self.message = message }
    }

    /// The test's source, and how many final states it asserts at its end;
    /// `scriptName` names the scripts commands came from.
    package func source(
        steps: [TestStep], states: [(target: String, state: any Sendable)], scriptName: (String) -> String = { $0 }
    ) throws(Unexportable) -> (text: String, finalStates: Int) {
        let indent = "    "
        var body: [String] = []
        var values = TestValues(indent: indent)
        var declaresReply = false
        // What each target was last asserted to be (its dump): a final state asserted already is not asserted again.
        var asserted: [String: String] = [:]
        for step in steps {
            switch step {
            case .send(let target, let command, let origin, let outcome):
                let line = origin.described(scriptName)
                guard let value = values.command(command) else {
                    throw Unexportable(
                        message: "cannot write \(line) as Swift: \(ValueText.typeName(command)) is neither an enum of plain values nor Codable")
                }
                // A command that went on over several lines is a comment line each: Swift ends a `//` comment at the line's end.
                body.append(contentsOf: line.split(separator: "\n", omittingEmptySubsequences: false).map { "// \($0)" })
                body.append(contentsOf: values.takeNotes())
                let send = "try await store.send(\(value), to: \(SwiftLiteral.string(target, indent: indent)))"
                switch outcome {
                case .replied(let reply?) where !(reply is Void):
                    if !declaresReply {
                        body.insert("var reply: (any Sendable)?", at: 0)
                        declaresReply = true
                    }
                    body.append("reply = \(send)")
                    let expected = values.reply(reply)
                    body.append(contentsOf: values.takeNotes())
                    body.append(expected)
                case .replied:
                    body.append(send)
                case .threw(let message):
                    body.append("// It failed: \(message.split(separator: "\n").joined(separator: " "))")
                    body.append("await #expect(throws: (any Error).self) { \(send) }")
                case .unanswered:
                    throw Unexportable(message: "cannot replay \(line): it did not answer in the session, so there is no reply to expect")
                }
            case .event(let source, let event):
                let received = values.event(event, from: source)
                body.append(contentsOf: values.takeNotes())
                body.append(received)
            case .state(let target, let state):
                let expected = values.state(target, state)
                body.append(contentsOf: values.takeNotes())
                body.append(expected)
                asserted[target] = String(customDumping: state)
            case .check(let check):
                body.append(contentsOf: TestCheck.lines(check, origin: check.origin.described(scriptName), indent: indent))
            case .reset(let origin):
                throw Unexportable(
                    message: "cannot write \(origin.described(scriptName)) as Swift: a test does not replay :reset; export the part after it")
            case .restore(let states, let origin):
                body.append("// \(origin.described(scriptName))")
                let restore = try values.restore(states, origin: origin.described(scriptName))
                body.append(contentsOf: values.takeNotes())
                body.append(restore)
            }
        }
        // A target whose state at the end was asserted where it changed is not asserted twice.
        let remaining = states.filter { asserted[$0.target] != String(customDumping: $0.state) }
        if !remaining.isEmpty {
            body.append(
                steps.contains { if case .state = $0 { true } else { false } }
                    ? "// The other targets' states at the end." : "// Each target's state at the end.")
        }
        for (target, state) in remaining {
            let expected = values.state(target, state)
            body.append(contentsOf: values.takeNotes())
            body.append(expected)
        }
        body.append("await store.finish()")

        // The modules of the types the values name too (a component tree's `EmitSignal` is TrellisCompose's, its state Compose's).
        // A restore names Trellis' `ClusterSnapshot`.
        let restores = steps.contains { if case .restore = $0 { true } else { false } } ? ["Trellis"] : []
        let modules = (["CustomDump", "Testing", "TrellisTesting"] + imports + values.modules + restores).sorted().reduce(into: [String]()) {
            if $0.last != $1 { $0.append($1) }
        }
        var out = """
            // Generated by `export-test` from \(source): the session replayed against the
            // cluster, each reply, event, change of state and :assert checked in order,
            // and each target's state at the end not asserted already.
            // Regenerate it rather than edit it.

            """
        // The cluster's modules are imported @testable: a memberwise initializer is internal.
        out += modules.map { (imports.contains($0) ? "@testable import " : "import ") + $0 + "\n" }.joined() + "\n"
        // A replay that hangs fails by name (a time limit is per minute; a test ends long before).
        out += "@Test(.timeLimit(.minutes(1))) func \(Self.identifier(name))() async throws {\n"
        out += "\(indent)let store = try await ClusterTestStore { clock in\n\(indent)\(indent)\(factory)\n\(indent)}\n"
        for line in body {
            out += line.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n") + "\n"
        }
        return (out + "}\n", remaining.count)
    }

    /// The initializer `@Command` or `@Memberwise` recorded for `type`: a
    /// generated test writes a value of it as a call of that initializer.
    package static func initializer(of type: Any.Type) -> [MemberwiseInitializer.Parameter]? {
        if let memberwise = type as? any MemberwiseInitializable.Type { return memberwise.memberwiseInitializer.parameters }
        return (type as? any CommandDocumented.Type)?.commandDocumentation.initializer?.map { .init(label: $0, field: $0) }
    }

    /// The module that declares `value`'s type (`TrellisCompose` for `TrellisCompose.EmitValue<Swift.String>`); nil for the standard library's.
    package static func module(of value: Any) -> String? {
        let qualified = String(reflecting: type(of: value))
        guard let dot = qualified.firstIndex(of: "."), !qualified.hasPrefix("(") else { return nil }
        let module = String(qualified[..<dot])
        return module == "Swift" || module.contains("<") ? nil : module
    }

    /// A test function's name from a script's file name: `account-messaging.karc` → `accountMessaging`.
    /// `name` as a Swift function's name: as it is when it is one, in
    /// backticks when it is a keyword (`class`), else its words camel-cased
    /// (`my test` → `myTest`), so what `--name` or a file's name gives compiles.
    package static func identifier(_ name: String) -> String {
        let isIdentifier =
            name.first.map { $0.isLetter || $0 == "_" } == true && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        let plain = isIdentifier ? name : functionName(for: name)
        return keywords.contains(plain) ? "`\(plain)`" : plain
    }

    /// Swift's reserved words: a function named so needs backticks.
    private static let keywords: Set = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super",
        "throws", "true", "try", "some", "any",
    ]

    package static func functionName(for path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let stem = base.hasSuffix(".karc") ? String(base.dropLast(5)) : base
        let words = stem.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        guard let first = words.first else { return "session" }
        let name = first.prefix(1).lowercased() + first.dropFirst() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.first?.isNumber == true ? "session" + name : name
    }
}
