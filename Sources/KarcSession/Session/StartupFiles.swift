import Foundation

/// The commands a prompt runs before its first line, as psql runs
/// `.psqlrc`: `DIR/karcrc`, then `DIR/NAME.karcrc` (NAME: the cluster's),
/// each when it exists, DIR being ``ShellOptions/startupDirectory``
/// (`$XDG_CONFIG_HOME/karc`, else `~/.config/karc`; none with `--no-rc`).
/// Scripts and `-e` do not run them: a script means the same on every
/// machine. Through `karc attach` they are the shell's machine's files.
package enum StartupFiles {
    /// `$XDG_CONFIG_HOME/karc`, else `$HOME/.config/karc`; nil when neither is set.
    package static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/karc" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/karc"
    }

    /// The files a prompt on `cluster` runs, in order, from `directory`.
    static func paths(in directory: String, cluster: String) -> [String] {
        [directory + "/karcrc", directory + "/\(cluster).karcrc"]
    }

    /// Runs each startup file that exists, as `:source` would without
    /// echoing: its commands count in `:history` but not in `:save` or
    /// `--record` (they are not the session's). A failure is reported with
    /// the file's line and ends that file; the prompt goes on.
    static func run(in session: ShellSession) async {
        guard let directory = session.options.startupDirectory else { return }
        for path in paths(in: directory, cluster: session.cluster.name) {
            let lines: any LineSource
            do {
                lines = try await session.host.openScript(path)
            } catch  where error.isMissingFile {
                continue
            } catch {
                session.renderer.error(error.message, script: nil, line: nil, column: nil)
                continue
            }
            session.io.sourceDepth += 1
            let result = await ScriptRunner(session: session).run(standardInput: lines, name: path)
            session.io.sourceDepth -= 1
            session.renderer.sink.flush()
            if result == .interrupted { return }
        }
    }
}
