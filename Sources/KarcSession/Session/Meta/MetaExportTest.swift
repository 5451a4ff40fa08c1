import Foundation
import KarcOutput
import KarcTestExport

/// `:export-test [--force] FILE.swift`: this session's sends and events, and each target's state now, as a Swift test.
/// A file there that this session did not write is not replaced without `--force`, as with `:save`.
enum MetaExportTest: MetaCommand {
    static let name = "export-test"
    static let arguments = "FILE.swift"  // and --force (details): the synopsis fits :help's column
    static let summary = "write this session as a Swift test that replays it"
    static let details = [
        ":export-test FlowTests.swift   a Swift Testing test that sends these commands through ClusterTestStore",
        "and checks each reply, event, change of state and :assert (--test-factory and --test-import set how it builds the cluster).",
        ":export-test --force FlowTests.swift  replace a file this session did not write (else it is kept, and nothing is written)",
    ]
    /// A replay would write the file again, and fail where no test factory is given.
    static let isReplayed = false

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        .file(at: position, of: words)
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        let force = call.arguments.contains { $0.value == "--force" }
        let files = call.arguments.filter { $0.value != "--force" }
        guard files.count == 1, let file = files.first else {
            return context.fail(
                ":export-test needs one file name (FILE.swift)", column: files.dropFirst().first?.column ?? call.name.column, in: call)
        }
        let options = context.options
        guard let factory = options.testExport.factory else {
            return context.fail(
                ":export-test needs the test's cluster factory: start the shell with --test-factory EXPR (a Swift expression of a Trellis Cluster)",
                column: call.name.column, in: call)
        }
        let base = (file.value as NSString).lastPathComponent
        let export = TestExport(
            factory: factory, imports: options.testExport.imports,
            name: TestExport.functionName(for: base.hasSuffix(".swift") ? String(base.dropLast(6)) : base),
            source: "a session of \(context.cluster.name)")
        let steps = context.log.testSteps
        guard steps.dropped == 0 else {
            return context.fail(
                "cannot write this session as a test: its first commands were dropped (--history-limit \(options.history.limit)), and a test replays a"
                    + " session from its start; raise --history-limit, or write a script with :save and use karc export-test SCRIPT",
                column: file.column, in: call)
        }
        let states = await context.targetStates()
        let source: (text: String, finalStates: Int)
        do {
            source = try export.source(steps: Array(steps.entries), states: states, scriptName: context.renderer.scriptName)
        } catch {
            return context.fail(error.message, column: file.column, in: call)
        }
        guard await context.write(source.text, to: file, force: force, replace: ":export-test --force \(file.value)", in: call) else {
            return .failed
        }
        let sends = steps.entries.count { if case .send = $0 { true } else { false } }
        context.renderer.log(
            "wrote \(file.value): \(sends) command\(sends == 1 ? "" : "s"), \(source.finalStates) final state\(source.finalStates == 1 ? "" : "s")")
        return .succeeded
    }
}
