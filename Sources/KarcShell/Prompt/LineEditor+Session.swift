import Foundation
import KarcSession

extension LineEditor {
    package struct Configuration: Sendable {
        var prompt: String
        var completer: Completer
        /// nil: no history file.
        var historyPath: String?
        /// Ctrl-C while a command runs (not while a line is typed: that clears the line).
        var interrupt: @Sendable () -> Void = {}
        /// A line was entered: from now on Ctrl-C is for it (called before it is handed over).
        var lineEntered: @Sendable () -> Void = {}
    }

    /// `--history-file`, else `$XDG_STATE_HOME/karc/NAME.history` (or
    /// `~/.local/state/karc/NAME.history`), one per cluster name, so your
    /// shell's Up does not bring back the demo's commands; `/dev/null` keeps none.
    package static func historyPath(option: String?, cluster name: String, environment: [String: String]) -> String? {
        if let option { return option == "/dev/null" ? nil : option }
        // A name is a file name here: no separators, no leading dot.
        var file = String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        if file.isEmpty || file.hasPrefix(".") { file = "_" + file }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return "\(state)/karc/\(file).history" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return "\(home)/.local/state/karc/\(file).history"
    }

    /// The prompt of a session in front of the cluster `name`: `completer`
    /// completes, the history file is the cluster's (or `historyFile`), and
    /// Ctrl-C while a command runs calls `interrupt`.
    package static func forSession(
        named name: String, completer: Completer, historyFile: String?,
        interrupt: @escaping @Sendable () -> Void, lineEntered: @escaping @Sendable () -> Void = {}
    ) -> LineEditor {
        LineEditor(
            .init(
                prompt: "\(name)> ",
                completer: completer,
                historyPath: historyPath(option: historyFile, cluster: name, environment: ProcessInfo.processInfo.environment),
                interrupt: interrupt,
                lineEntered: lineEntered))
    }
}
