import Foundation

@testable import KarcOutput
@testable import KarcSession
@testable import KarcShell

/// What a script run printed: its standard output, its errors, its exit status.
struct Transcript {
    var output: String
    var errors: String
    var status: Int32

    /// Runs `lines` as a script against `cluster`, with the shell's own
    /// session and runner, its output going to files read afterwards (and
    /// what a prompt would complete to `words`).
    static func run(
        _ cluster: any ShellCluster, _ lines: [String], options: ShellOptions = ShellOptions(), words: PromptWords = PromptWords(),
        runtime: ShellRuntime = ShellRuntime()
    ) async throws -> Transcript {
        try await capture { sink in
            let session = ShellSession(cluster: cluster, options: options, sink: sink, words: words, runtime: runtime)
            let result = await ScriptRunner(session: session).run(lines: lines, name: "<test>")
            return result == .succeeded || result == .quit(failed: false) ? 0 : 1
        }
    }

    /// What `body` printed to the sink it is given, and the status it returned.
    static func capture(_ body: (OutputSink) async -> Int32) async throws -> Transcript {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karc-transcript-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outPath = directory.appendingPathComponent("out").path
        let errPath = directory.appendingPathComponent("err").path
        let out = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let err = open(errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let sink = OutputSink(output: out, errors: err)
        let status = await body(sink)
        sink.flush()
        close(out)
        close(err)
        return Transcript(
            output: try String(contentsOfFile: outPath, encoding: .utf8),
            errors: try String(contentsOfFile: errPath, encoding: .utf8),
            status: status)
    }
}
