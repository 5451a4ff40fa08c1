/// A value written in a command line, before it is checked against a field's type.
package indirect enum ShellValue: Sendable, Equatable {
    case int(Int, text: String)
    case decimal(Double, text: String)
    case bool(Bool)
    case null
    /// A "quoted string" (escapes resolved) or a bare word.
    case string(String, quoted: Bool)
    case list([Located<ShellValue>])
    /// A `{…}` object, as written (checked as JSON when the command is built).
    case json(String)

    /// How the value was written, for error messages; long values are cut
    /// (`"9999…" (100000 characters)`) so one bad value cannot flood the screen.
    package var shown: String {
        written.clipped
    }

    /// How the value was written.
    package var written: String {
        switch self {
        case .int(_, let text), .decimal(_, let text): text
        case .bool(let value): "\(value)"
        case .null: "nil"
        case .string(let text, _): "\"\(text)\""
        case .list(let items): "[" + items.map(\.value.written).joined(separator: ", ") + "]"
        case .json(let text): text
        }
    }
}

/// A value and the column (1-based, in characters) where it starts.
package struct Located<Value: Sendable & Equatable>: Sendable, Equatable {
    package let value: Value
    package let column: Int

    package init(_ value: Value, column: Int) {
        self.value = value
        self.column = column
    }
}
