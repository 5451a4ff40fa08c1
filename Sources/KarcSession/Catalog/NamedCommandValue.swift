/// What the shell decodes for a command a target names itself
/// (``CommandSchema/init(named:typeName:input:summary:action:)``): its one
/// field, `value=`.
struct NamedCommandValue<Value: Decodable & Sendable>: Decodable, Sendable, NamedCommandInput {
    let value: Value

    var typedValue: (any Sendable)? { value }
}

/// What the shell decodes for a command a target names itself that takes no value.
struct NamedCommandWithoutValue: Decodable, Sendable, NamedCommandInput {
    var typedValue: (any Sendable)? { nil }
}

/// The value a named command was typed with, whatever its type.
protocol NamedCommandInput: Sendable {
    var typedValue: (any Sendable)? { get }
}
