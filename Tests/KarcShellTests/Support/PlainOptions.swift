import KarcSession

extension ShellOptions {
    /// What most tests run a session with: no color, so output compares as text;
    /// `quiet`: no notes; `keepGoing`: a failing line does not end the script.
    static func plain(quiet: Bool = false, keepGoing: Bool = false) -> ShellOptions {
        var options = ShellOptions()
        options.printing.color = false
        options.printing.quiet = quiet
        options.keepGoing = keepGoing
        return options
    }
}
