/// What the shell decodes for a command a target names itself
/// (``CommandSchema/init(named:typeName:input:summary:action:)``): its one
/// field, `value=`.
package struct NamedCommandValue<Value: Decodable & Sendable>: Decodable, Sendable, NamedCommandInput {
    package let value: Value

    package var typedValue: (any Sendable)? { value }
}

/// What the shell decodes for a command a target names itself that takes no value.
package struct NamedCommandWithoutValue: Decodable, Sendable, NamedCommandInput {
    package var typedValue: (any Sendable)? { nil }
}

/// The value a named command was typed with, whatever its type.
package protocol NamedCommandInput: Sendable {
    var typedValue: (any Sendable)? { get }
}
