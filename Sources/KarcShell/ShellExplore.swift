import Foundation
import KarcExplore
import KarcSession

extension Shell {
    /// Runs `explore` in front of clusters `make` builds: the catalog is read
    /// from one, the sequences run in a child (`workerArguments` make this
    /// program one) or here (`--in-process`). The exit status.
    /// `commandLine` is how explore was started, for the report's lines
    /// that replay a script and repeat the exploration.
    static func explore(
        name: String, explore: ExploreArguments, testExport: TestExportOptions, workerArguments: [String],
        commandLine: ExploreCommandLine, cluster make: @escaping InProcessExplore.MakeCluster
    ) async -> Int32 {
        let sink = OutputSink()
        defer { sink.flush() }
        let catalogCluster: any ShellCluster
        do {
            catalogCluster = try await make(ExploreClock())
        } catch {
            sink.writeError("error: cannot start the cluster: \(error)")
            return 2
        }
        let catalog = catalogCluster.catalog
        await catalogCluster.shutDown()
        if explore.exportTest, explore.testFactory == nil, testExport.factory == nil {
            sink.writeError("error: --export-test needs the test's cluster factory: --test-factory EXPR (a Swift expression of a Trellis Cluster)")
            return 2
        }
        let generator: CommandGenerator
        do {
            generator = try CommandGenerator(catalog: catalog, targets: explore.targetList, skip: explore.skipList)
        } catch {
            sink.writeError("error: \(error.message)")
            return 2
        }
        let backend: any ExploreBackend =
            explore.inProcess
            ? InProcessExplore(settings: explore.stepSettings, cluster: make)
            : ExploreChild(
                executable: ExploreChild.currentExecutable, arguments: workerArguments,
                watchdog: explore.timeout.duration * 3 + .seconds(10))
        let seed = explore.seed ?? UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000
        let progress = TerminalStatusLine.writer(json: explore.json)
        var settings = explore.settings(name: name, seed: seed, testExport: testExport, catalog: catalog, commandLine: commandLine)
        settings.interruption = {
            switch ScriptSignals.exitStatus {
            case 128 + SIGTERM: "SIGTERM"
            case 128 + SIGHUP: "SIGHUP"
            default: "Ctrl-C"
            }
        }
        // Ctrl-C stops the exploration, which then writes and tells what it found (SIGTERM and SIGHUP too).
        let interrupter = Interrupter()
        ScriptSignals.forward(to: interrupter, flushing: sink)
        let explorer = Explorer(generator: generator, backend: backend, settings: settings, sink: sink, progress: progress, interrupter: interrupter)
        do {
            let report = try await explorer.run()
            if report.interrupted { return ScriptSignals.exitStatus ?? 130 }
            if !report.found.isEmpty { return 1 }
            return report.failOnNeverThrown.isEmpty ? 0 : 2
        } catch {
            progress?("")
            sink.writeError("error: \(error.message)")
            return 2
        }
    }
}
