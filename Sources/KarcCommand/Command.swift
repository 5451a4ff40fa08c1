/// Makes a type a command people type in the karc shell, as it is written:
/// a field with a default (`var by = 1`, `case add(title: String, priority:
/// Priority = .normal)`) may be left out and gets that default, and the doc
/// comments of the type, its fields and its cases become `:help` text.
///
/// ```swift
/// @Command
/// struct Increment: Codable, Sendable {
///     /// How much to add.
///     var by = 1
/// }
///
/// @Command
/// enum CartAction: Action, Codable {
///     /// Adds an item to the cart.
///     /// - Parameter quantity: how many.
///     case add(item: String, quantity: Int = 1)
///     case clear
/// }
/// ```
///
/// Swift's synthesized `Decodable` ignores defaults: without the attribute a
/// missing field is an error. With it, the type gets an `init(from:)` that
/// decodes what Swift's would (the same keys, the same nesting of enum
/// cases, so `Encodable` output still decodes) and falls back to each
/// default; and `Decodable` if it did not declare it. All of it is added in
/// extensions, so a struct keeps its memberwise initializer.
@attached(extension, conformances: Decodable, CommandDocumented, names: named(init(from:)), named(commandDocumentation), arbitrary)
public macro Command() = #externalMacro(module: "KarcMacros", type: "CommandMacro")

/// A command type that carries its documentation (what ``Command()`` adds):
/// the shell shows it in `:help` and hints.
public protocol CommandDocumented {
    /// The type's documentation, as `@Command` read it from the declaration.
    static var commandDocumentation: CommandDocumentation { get }
}

/// The doc comments of a command type, its fields and, for an enum, its cases.
public struct CommandDocumentation: Sendable, Equatable {
    /// The first paragraph of the type's doc comment.
    public var summary: String?
    /// Per field (by coding key): its doc comment, and its default as written in Swift.
    public var fields: [String: Field]
    /// Per enum case (by coding key).
    public var cases: [String: CommandDocumentation]

    /// One field's documentation.
    public struct Field: Sendable, Equatable {
        /// The field's doc comment, if any.
        public var summary: String?
        /// The default value's Swift source (`1`, `.normal`); nil when it has none.
        public var defaultValue: String?

        /// A field's summary and default, as written.
        public init(summary: String?, defaultValue: String?) {
            self.summary = summary
            self.defaultValue = defaultValue
        }
    }

    /// A struct's initializer that takes each stored field, in order, under
    /// its name: its memberwise initializer, or one it declares with those
    /// labels. A generated test writes the command with it
    /// (`Articles.Add(title: "Hi")`); nil when there is none.
    public var initializer: [String]?

    /// A type's summary, its fields' documentation, (for an enum) each case's, and (for a struct) its initializer's labels.
    public init(summary: String?, fields: [String: Field] = [:], cases: [String: CommandDocumentation] = [:], initializer: [String]? = nil) {
        self.summary = summary
        self.fields = fields
        self.cases = cases
        self.initializer = initializer
    }
}

// What the `init(from:)` that ``Command()`` writes decodes with: the type
// of each value comes from the property or case parameter it is given to.
extension KeyedDecodingContainer {
    /// The value for `key`.
    public func decode<T: Decodable>(field key: Key) throws -> T {
        try decode(T.self, forKey: key)
    }

    /// The value for `key`, or nil when it is absent or null.
    public func decodeIfPresent<T: Decodable>(field key: Key) throws -> T? {
        try decodeIfPresent(T.self, forKey: key)
    }

    /// The value for `key`, or `value` when the key is absent (or null).
    public func decode<T: Decodable>(field key: Key, default value: @autoclosure () throws -> T) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? value()
    }
}

/// An action that stands for a command its target names itself (a mounted
/// component tree's emitter, a Trellis `TargetCommand`): the shell's traces and
/// sequence diagrams name it by that command (`auth.log-in.email`), not by
/// its type, which all of the target's commands share.
package protocol NamedCommandAction: Sendable {
    /// The command's path, as Swift writes it (`logIn.email`).
    var commandPath: String { get }
}
