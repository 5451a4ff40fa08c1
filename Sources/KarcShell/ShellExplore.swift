import Foundation
import KarcSession

extension Shell {
    /// Runs `explore` in front of clusters `make` builds: the catalog is read
    /// from one, the sequences run in a child (`workerArguments` make this
    /// program one) or here (`--in-process`). The exit status.
    static func explore(
        name: String, explore: ExploreArguments, testExport: TestExportOptions, workerArguments: [String],
        cluster make: @escaping InProcessExplore.MakeCluster
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
        var progress: (@Sendable (String) -> Void)?
        if !explore.json, isatty(STDERR_FILENO) == 1 {
            progress = { line in
                let text = "\r\u{1B}[K" + line
                _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            }
        }
        let explorer = Explorer(
            generator: generator, backend: backend, settings: explore.settings(name: name, seed: seed, testExport: testExport, catalog: catalog),
            sink: sink, progress: progress)
        do {
            let report = try await explorer.run()
            return report.found.isEmpty ? 0 : 1
        } catch {
            progress?("")
            sink.writeError("error: \(error.message)")
            return 2
        }
    }
}
