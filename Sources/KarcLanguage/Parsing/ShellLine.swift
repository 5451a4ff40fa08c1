/// One parsed line of the shell's command language.
package enum ShellLine: Sendable, Equatable {
    /// Blank, or a `# comment`.
    case empty
    /// `:name args…`; the arguments are split on whitespace, quotes kept together.
    case meta(name: Located<String>, arguments: [Located<String>])
    /// `target.command field=value …` or `target.command {json}`.
    case command(Invocation)
}

/// `target.command` and what follows it.
package struct Invocation: Sendable, Equatable {
    package let target: Located<String>
    package let command: Located<String>
    package let body: Body

    package enum Body: Sendable, Equatable {
        case fields([FieldArgument])
        case json(Located<String>)
    }
}

/// `name=value`.
package struct FieldArgument: Sendable, Equatable {
    package let name: Located<String>
    package let value: Located<ShellValue>
}

/// What went wrong in a line, and where (1-based column, in characters).
package struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
    package let column: Int
    package let message: String

    package init(column: Int, _ message: String) {
        self.column = column
        self.message = message
    }

    package var description: String { "column \(column): \(message)" }
}
