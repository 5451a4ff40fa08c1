import KarcLanguage
import KarcRendering
import KarcSession

/// A failure `explore` shrank, written as a Swift Testing test on
/// `ClusterTestStore` that fails the same way: the commands sent in order
/// (the store's clock moved on while one waits, as explore moves it), then
/// what failed checked: the invariants (`expectInvariants()`), or the last
/// send left to throw, hang past the store's timeout, or crash.
struct ExploreTestExport {
    var export: TestExport
    var advance: Duration

    /// One command of the sequence, built from its line.
    struct Step {
        var target: String
        var command: any Sendable
        var line: String
        /// The cluster refused it during the replay (an error that is no bug): the test lets it throw.
        var refused: Bool
    }

    /// The commands of `lines`, built with `catalog`; an error names a line that cannot be.
    static func steps(_ lines: [String], refused: Set<Int>, catalog: Catalog) throws(TestExport.Unexportable) -> [Step] {
        let builder = CommandBuilder(catalog: catalog)
        var steps: [Step] = []
        for (index, line) in lines.enumerated() {
            do {
                guard case .command(let invocation) = try LineParser.parse(line) else { continue }
                let built = try builder.build(invocation)
                steps.append(Step(target: built.target.name, command: built.value, line: line, refused: refused.contains(index)))
            } catch {
                throw TestExport.Unexportable(message: "cannot write \(line) as Swift: \(error.message)")
            }
        }
        return steps
    }

    /// The test's source; `comments` go above it (what failed, the seed).
    func source(_ steps: [Step], failure: ExploreFailure, comments: [String]) throws(TestExport.Unexportable) -> String {
        let indent = "    "
        let step = "advancingBy: \(Self.swiftDuration(advance))"
        var body = ["store.isExhaustive = false"]
        for (index, sent) in steps.enumerated() {
            guard let value = SwiftLiteral.value(sent.command, indent: indent, initializer: TestExport.initializer) else {
                throw TestExport.Unexportable(
                    message: "cannot write \(sent.line) as Swift: \(ValueText.typeName(sent.command)) is neither an enum of plain values nor Codable")
            }
            body.append("// \(sent.line)")
            let send = "await store.send(\(value), to: \(SwiftLiteral.string(sent.target, indent: indent)), \(step))"
            let isLast = index == steps.count - 1
            if isLast, case .error = failure.kind {
                body.append("// It throws the error --fail-on named: the test fails with it.")
                body.append("try " + send)
            } else if sent.refused {
                body.append("_ = try? " + send)
            } else {
                body.append("try " + send)
            }
        }
        switch failure.kind {
        case .invariant: body.append("await store.expectInvariants()")
        case .timeout: body.insert("// The last command does not settle: the store's timeout fails the test.", at: body.count - 2)
        case .crash, .exit: body.insert("// The last command ends the process.", at: body.count - 2)
        case .error: break
        }
        let modules = (["Testing", "TrellisTesting"] + export.imports + steps.compactMap { TestExport.module(of: $0.command) }).sorted()
            .reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        var out = comments.map { "// " + $0 + "\n" }.joined() + "// Regenerate it with explore rather than edit it.\n\n"
        out += modules.map { (export.imports.contains($0) ? "@testable import " : "import ") + $0 + "\n" }.joined() + "\n"
        out += "@Test(.timeLimit(.minutes(1))) func \(TestExport.identifier(export.name))() async throws {\n"
        out += "\(indent)let store = try await ClusterTestStore { clock in\n\(indent)\(indent)\(export.factory)\n\(indent)}\n"
        for line in body {
            out += line.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n") + "\n"
        }
        return out + "}\n"
    }

    /// `duration` as Swift (`.seconds(1)`, `.milliseconds(250)`).
    static func swiftDuration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? ".seconds(\(seconds))" : ".milliseconds(\(ShellDuration.milliseconds(duration)))"
    }
}
