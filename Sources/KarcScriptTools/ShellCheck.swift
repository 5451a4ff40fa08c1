import Foundation
import KarcSession

extension Shell {
    /// Checks transcripts, as `karc check` does: runs each script against a
    /// cluster of its own (`makeCluster`, called once a script), compares
    /// what each command prints with the `#=` lines under it, and prints a
    /// unified diff of each script that differs. With `update`, rewrites the
    /// expectations instead. Returns the exit status: 0 when every
    /// transcript matched (or was updated), 1 otherwise.
    public static func check(
        _ files: [String], update: Bool = false, timeout: Duration = .seconds(5), testExport: TestExportOptions = TestExportOptions(),
        cluster makeCluster: @Sendable () async throws -> any ShellCluster
    ) async -> Int32 {
        await check(files, update: update, timeout: timeout, testExport: testExport, interrupts: .none, cluster: makeCluster)
    }

    /// The same, with Ctrl-C and signals reaching each run through `interrupts` (`karc check`).
    package static func check(
        _ files: [String], update: Bool, timeout: Duration, testExport: TestExportOptions = TestExportOptions(), interrupts: ScriptInterrupts,
        cluster makeCluster: @Sendable () async throws -> any ShellCluster
    ) async -> Int32 {
        let sink = OutputSink()
        defer { sink.flush() }
        var passed = 0
        var failed = 0
        var updated = 0
        for path in files {
            let verdict = await check(
                path, update: update, timeout: timeout, testExport: testExport, interrupts: interrupts, sink: sink, cluster: makeCluster)
            sink.flush()  // each transcript's verdict as it comes, not all at the end
            switch verdict {
            case .passed: passed += 1
            case .updated: updated += 1
            case .failed: failed += 1
            case .stop:
                failed += 1
                sink.writeError("error: stopped before the rest of the transcripts")
                return interrupts.exitStatus() ?? 1
            }
        }
        var summary = "\(files.count) transcript\(files.count == 1 ? "" : "s"): \(passed) passed"
        if updated > 0 { summary += ", \(updated) updated" }
        if failed > 0 { summary += ", \(failed) failed" }
        sink.write(summary)
        return failed == 0 ? 0 : 1
    }

    /// The script at `path`, as text and read as a transcript; nil when it
    /// cannot be read or has a bad line, after saying so on `sink` (the
    /// script called `noun` in the message).
    static func read(_ path: String, called noun: String, sink: OutputSink) -> (text: String, transcript: Transcript)? {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            sink.writeError(
                "error: cannot read the \(noun) \(path): \(FileManager.default.fileExists(atPath: path) ? "not UTF-8 text, or not readable" : "no such file")"
            )
            return nil
        }
        do {
            return (text, try Transcript(text: text))
        } catch {
            sink.writeError("\(path):\(error.line): error: \(error.message)")
            return nil
        }
    }

    private enum Verdict {
        case passed, updated, failed
        /// Ctrl-C, or no cluster to run on: the other transcripts are not run either.
        case stop
    }

    private static func check(
        _ path: String, update: Bool, timeout: Duration, testExport: TestExportOptions, interrupts: ScriptInterrupts, sink: OutputSink,
        cluster makeCluster: @Sendable () async throws -> any ShellCluster
    ) async -> Verdict {
        guard let (text, transcript) = read(path, called: "transcript", sink: sink) else { return .failed }
        let cluster: any ShellCluster
        do {
            cluster = try await makeCluster()
        } catch {
            sink.writeError("error: cannot start the cluster for \(path): \(error)")
            return .stop
        }
        let run = await TranscriptRun.run(
            transcript, path: path, cluster: cluster, timeout: timeout, testExport: testExport, interrupts: interrupts)
        await cluster.shutDown()
        if run.interrupted {
            sink.writeError("error: interrupted while checking \(path)")
            return .stop
        }
        let printed = transcript.rewritten(with: run.outputs)
        guard let difference = UnifiedDiff.text(old: text, new: printed, oldName: "\(path) (expected)", newName: "\(path) (printed)") else {
            sink.write("ok      \(path)")
            return .passed
        }
        if update {
            // A time of day or a duration printed now differs on the next run: masked, and said so.
            var written = printed
            let added = TranscriptMask.builtInsNeeded(by: run.outputs, declared: transcript.masks)
            if !added.isEmpty, let masked = try? Transcript(text: added.map { "\(CheckLine.maskKeyword) \($0)\n" }.joined() + text) {
                written = masked.rewritten(with: run.outputs)
            }
            do {
                try written.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                sink.writeError("error: cannot write \(path): \(error.localizedDescription)")
                return .failed
            }
            let masks = added.map { "#mask \($0)" }.joined(separator: ", ")
            sink.write("updated \(path)" + (added.isEmpty ? "" : " (added \(masks): what they match differs on every run)"))
            return .updated
        }
        for line in difference.split(separator: "\n", omittingEmptySubsequences: false).dropLast() { sink.write(String(line)) }
        sink.write("FAILED  \(path)")
        return .failed
    }
}
