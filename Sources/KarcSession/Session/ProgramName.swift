import Foundation

/// The name this program was started by (`karc`, an app's own `shop`), as
/// a line that tells the user what to run next writes it: the app's own
/// executable replays its scripts, not the demo's `karc`.
package enum ProgramName {
    /// The last part of the path the process was started with; `karc` when there is none.
    package static var current: String {
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return "karc" }
        return URL(fileURLWithPath: first).lastPathComponent
    }
}
