/// One parsed line of the shell's command language.
enum ShellLine: Sendable, Equatable {
    /// Blank, or a `# comment`.
    case empty
    /// `:name args…`; the arguments are split on whitespace, quotes kept together.
    case meta(name: Located<String>, arguments: [Located<String>])
    /// `target.command field=value …` or `target.command {json}`.
    case command(Invocation)
}

/// `target.command` and what follows it.
struct Invocation: Sendable, Equatable {
    let target: Located<String>
    let command: Located<String>
    let body: Body

    enum Body: Sendable, Equatable {
        case fields([FieldArgument])
        case json(Located<String>)
    }
}

/// `name=value`.
struct FieldArgument: Sendable, Equatable {
    let name: Located<String>
    let value: Located<ShellValue>
}

/// What went wrong in a line, and where (1-based column, in characters).
struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
    let column: Int
    let message: String

    init(column: Int, _ message: String) {
        self.column = column
        self.message = message
    }

    var description: String { "column \(column): \(message)" }
}
