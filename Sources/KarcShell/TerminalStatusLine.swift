import Foundation

/// A line kept up to date in place on standard error (a wait's, a shrink's
/// progress): each text replaces the last (`\r`, then the line cleared).
enum TerminalStatusLine {
    /// The writer, when standard error is a terminal and the output is not
    /// JSON; nil otherwise (a pipe or a log gets no half-lines).
    static func writer(json: Bool) -> (@Sendable (String) -> Void)? {
        guard !json, isatty(STDERR_FILENO) == 1 else { return nil }
        return { line in
            let text = "\r\u{1B}[K" + line
            _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        }
    }
}
