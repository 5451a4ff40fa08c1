import Foundation
import TestSupport
import Testing

/// `karcrc`: the commands a prompt runs before its first line, as psql runs
/// `.psqlrc`: the general file, then the cluster's own, from
/// `$XDG_CONFIG_HOME/karc`; `--no-rc` skips them, and a script never runs them.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct StartupFileTests {
    let scratch = ScratchDirectory("karc-rc")
    var configDirectory: String { scratch.path + "/config/karc" }

    func writeStartupFiles(general: String, demo: String) throws {
        try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
        try general.write(toFile: configDirectory + "/karcrc", atomically: true, encoding: .utf8)
        try demo.write(toFile: configDirectory + "/demo.karcrc", atomically: true, encoding: .utf8)
    }

    @Test func thePromptRunsTheGeneralFileThenTheClustersBeforeTheFirstLine() async throws {
        try writeStartupFiles(general: ":timing on\n", demo: "# the demo starts at five\ncounter.increment value=5\n")
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: scratch.path, arguments: "--fresh")
            await tmux.expect("the cluster's file did not run") { $0.contains("+ CounterStore.State(count: 5)") }
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect("the general file did not switch timing on") { $0.contains("+ CounterStore.State(count: 6)") && $0.contains("time   ") }
            // Its commands ran, numbered, but they are not this session's to save.
            await tmux.send(text: ":history", enter: true)
            await tmux.expect { $0.contains("    3  ok     counter.increment\n") }
            let pane = await tmux.capture()
            #expect(pane.contains("    1  ok     :timing on"), "\(pane)")
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func aFailingLineIsNamedByFileAndLineAndThePromptGoesOn() async throws {
        try writeStartupFiles(general: "counter.incremnt\n", demo: "")
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: scratch.path, arguments: "--fresh")
            // (The long path wraps in the pane.)
            await tmux.expect {
                $0.replacingOccurrences(of: "\n", with: "").contains("\(configDirectory)/karcrc:1:9: error: unknown command 'incremnt'")
            }
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func noRCSkipsThem() async throws {
        try writeStartupFiles(general: "counter.increment value=5\n", demo: "")
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: scratch.path, arguments: "--fresh --no-rc")
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func aScriptNeverRunsThem() async throws {
        try writeStartupFiles(general: "counter.increment value=5\n", demo: "")
        let run = try await KarcRun.run(
            ["--fresh", "-e", "counter.increment"], environment: ["XDG_CONFIG_HOME": scratch.path + "/config"])
        #expect(run.stdout.contains("+ CounterStore.State(count: 1)"), "\(run.stdout)")
    }

    @Test func throughAttachTheShellsMachinesFilesRun() async throws {
        try writeStartupFiles(general: "", demo: "counter.increment value=5\n")
        let served = try await ServedDemo()
        try await Tmux.session { tmux in
            try await tmux.startAttach(home: scratch.path, to: served)
            await tmux.expect("the shell's startup file did not run in the app") { $0.contains("+ CounterStore.State(count: 5)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
        _ = await served.stop()
    }
}
