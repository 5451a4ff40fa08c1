import KarcCommand

/// A value as a Swift expression, as a tree first (calls, arrays,
/// dictionaries, literals) so that it can be laid out to a width: on one
/// line when it fits, else an argument or element a line.
package indirect enum SwiftExpression {
    /// Written as it is (`1`, `true`, `nil`, `.clear`).
    case atom(String)
    /// A string, written as a literal when laid out (a `"""` block takes the indentation of its line).
    case string(String)
    /// `callee(label: value, …)`.
    case call(String, [(label: String?, value: SwiftExpression)])
    case array([SwiftExpression])
    case dictionary([(key: SwiftExpression, value: SwiftExpression)])

    /// Laid out starting at `indent`, in `width` columns where it can be.
    package func written(indent: String, width: Int) -> String {
        if let flat = flat, indent.count + flat.count <= width { return flat }
        let inner = indent + "    "
        switch self {
        case .atom(let text): return text
        case .string(let text): return SwiftLiteral.string(text, indent: indent)
        case .call(let callee, let arguments):
            guard !arguments.isEmpty else { return callee + "()" }
            let lines = arguments.map { argument in
                inner + (argument.label.map { "\($0): " } ?? "") + argument.value.written(indent: inner, width: width)
            }
            return callee + "(\n" + lines.joined(separator: ",\n") + "\n" + indent + ")"
        case .array(let elements):
            guard !elements.isEmpty else { return "[]" }
            return "[\n" + elements.map { inner + $0.written(indent: inner, width: width) + ",\n" }.joined() + indent + "]"
        case .dictionary(let entries):
            guard !entries.isEmpty else { return "[:]" }
            let lines = entries.map {
                inner + $0.key.written(indent: inner, width: width) + ": " + $0.value.written(indent: inner, width: width) + ",\n"
            }
            return "[\n" + lines.joined() + indent + "]"
        }
    }

    /// On one line; nil when a string in it spans lines.
    private var flat: String? {
        switch self {
        case .atom(let text): return text
        case .string(let text): return text.contains(where: \.isNewline) ? nil : SwiftLiteral.string(text, indent: "")
        case .call(let callee, let arguments):
            var written: [String] = []
            for argument in arguments {
                guard let value = argument.value.flat else { return nil }
                written.append((argument.label.map { "\($0): " } ?? "") + value)
            }
            return callee + "(" + written.joined(separator: ", ") + ")"
        case .array(let elements):
            let written = elements.map(\.flat)
            guard written.allSatisfy({ $0 != nil }) else { return nil }
            return "[" + written.compactMap { $0 }.joined(separator: ", ") + "]"
        case .dictionary(let entries):
            guard !entries.isEmpty else { return "[:]" }
            var written: [String] = []
            for entry in entries {
                guard let key = entry.key.flat, let value = entry.value.flat else { return nil }
                written.append("\(key): \(value)")
            }
            return "[" + written.joined(separator: ", ") + "]"
        }
    }

    /// `value` as an expression (``SwiftLiteral/swift(_:indent:width:initializer:)``); nil when a part of it is not written as Swift.
    package static func of(_ value: Any, initializer: @escaping (Any.Type) -> [MemberwiseInitializer.Parameter]?) -> SwiftExpression? {
        written(value, initializer: initializer)?.expression
    }

    /// `value` as an expression, and the modules that declare the types it names (a test imports them).
    package static func written(
        _ value: Any, initializer: @escaping (Any.Type) -> [MemberwiseInitializer.Parameter]?
    ) -> (expression: SwiftExpression, modules: Set<String>)? {
        var builder = Builder(initializer: initializer)
        return builder.node(value).map { ($0, builder.modules) }
    }

    /// Reads values into expressions, each struct with its type's initializer when known.
    struct Builder {
        let initializer: (Any.Type) -> [MemberwiseInitializer.Parameter]?
        /// The modules of the types named so far (not the standard library's).
        var modules: Set<String> = []

        init(initializer: @escaping (Any.Type) -> [MemberwiseInitializer.Parameter]?) {
            self.initializer = initializer
        }

        private mutating func named(_ value: Any) {
            let qualified = String(reflecting: type(of: value))
            guard let dot = qualified.firstIndex(of: "."), !qualified.hasPrefix("(") else { return }
            let module = String(qualified[..<dot])
            if module != "Swift", !module.contains("<") { modules.insert(module) }
        }

        /// Numbers, booleans, strings, optionals, arrays, sets and
        /// dictionaries of them, enum cases and structs written as below;
        /// nil for anything else.
        mutating func node(_ value: Any) -> SwiftExpression? {
            switch value {
            case let text as String: return .string(text)
            case let flag as Bool: return .atom(flag ? "true" : "false")
            case is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64: return .atom("\(value)")
            case let number as Double: return number.isFinite ? .atom("\(number)") : nil
            case let number as Float: return number.isFinite ? .atom("\(number)") : nil
            default: break
            }
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional?:
                guard let wrapped = mirror.children.first?.value else { return .atom("nil") }
                return node(wrapped)
            case .collection?:
                return elements(mirror).map(SwiftExpression.array)
            case .set?:
                // A set's order is the hash's: sorted, so a test is written the same each time.
                return elements(mirror).map { .array($0.sorted { ($0.flat ?? "") < ($1.flat ?? "") }) }
            case .dictionary?:
                var entries: [(key: SwiftExpression, value: SwiftExpression)] = []
                for pair in ValueChildren.entries(of: mirror) {
                    guard let key = node(pair.key), let value = node(pair.value) else { return nil }
                    entries.append((key, value))
                }
                return .dictionary(entries.sorted { ($0.key.flat ?? "") < ($1.key.flat ?? "") })
            case .struct?:
                return call(value, mirror)
            case .enum?:
                return enumCase(value, mirror)
            default:
                return nil
            }
        }

        private mutating func elements(_ mirror: Mirror) -> [SwiftExpression]? {
            var elements: [SwiftExpression] = []
            for child in mirror.children {
                guard let element = node(child.value) else { return nil }
                elements.append(element)
            }
            return elements
        }

        /// `Type.case` or `Type.case(label: value, …)`; nil when the payload is not values this writes.
        private mutating func enumCase(_ value: Any, _ mirror: Mirror) -> SwiftExpression? {
            named(value)
            let type = ValueText.typeName(value)
            guard let child = mirror.children.first else {
                // A case without a payload has no child: its name is its default description.
                guard !(value is any CustomStringConvertible) else { return nil }
                let name = String(describing: value)
                guard let first = name.first, first.isLetter || first == "_", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    return nil
                }
                return .atom("\(type).\(name)")
            }
            guard let name = child.label else { return nil }
            var arguments: [(label: String?, value: SwiftExpression)] = []
            for argument in ValueChildren.payload(of: child) {
                guard let written = node(argument.value) else { return nil }
                arguments.append((argument.label, written))
            }
            return .call("\(type).\(name)", arguments)
        }

        /// `Type(label: value, …)`: the struct's initializer called with its
        /// stored fields; nil when its type has none known, or a field is
        /// not a value this writes.
        private mutating func call(_ value: Any, _ mirror: Mirror) -> SwiftExpression? {
            guard let parameters = initializer(type(of: value)) else { return nil }
            named(value)
            let fields = Dictionary(mirror.children.compactMap { child in child.label.map { ($0, child.value) } }) { first, _ in first }
            var arguments: [(label: String?, value: SwiftExpression)] = []
            for parameter in parameters {
                guard let field = fields[parameter.field], let written = node(field) else { return nil }
                arguments.append((parameter.label, written))
            }
            return .call(ValueText.typeName(value), arguments)
        }
    }
}
