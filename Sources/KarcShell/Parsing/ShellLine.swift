/// One parsed line of the shell's command language.
public enum ShellLine: Sendable, Equatable {
    /// Blank, or a `# comment`.
    case empty
    /// `:name args…`; the arguments are split on whitespace, quotes kept together.
    case meta(name: Located<String>, arguments: [Located<String>])
    /// `target.command field=value …` or `target.command {json}`.
    case command(Invocation)
}

/// `target.command` and what follows it.
public struct Invocation: Sendable, Equatable {
    public let target: Located<String>
    public let command: Located<String>
    public let body: Body

    public enum Body: Sendable, Equatable {
        case fields([FieldArgument])
        case json(Located<String>)
    }
}

/// `name=value`.
public struct FieldArgument: Sendable, Equatable {
    public let name: Located<String>
    public let value: Located<ShellValue>
}

/// What went wrong in a line, and where (1-based column, in characters).
public struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
    public let column: Int
    public let message: String

    public init(column: Int, _ message: String) {
        self.column = column
        self.message = message
    }

    public var description: String { "column \(column): \(message)" }
}
