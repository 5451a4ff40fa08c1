/// The outcome of validating a state's fields, built with `@ValidationBuilder`:
///
/// ```swift
/// @ValidationBuilder
/// var credentials: Validation {
///     Field(email, rules: [.nonEmpty: "Email address must be non-empty", .email: "Invalid email address format"])
///     Field(password, rules: .length(6...1000))
/// }
/// ```
public struct Validation: Sendable, Equatable {
    /// Every field that failed, in declaration order.
    public let failures: [ValidationFailure]

    /// A validation with `failures` (valid when there are none).
    public init(failures: [ValidationFailure] = []) {
        self.failures = failures
    }

    /// A validation built in place: `Validation { Field(…) }`.
    public init(@ValidationBuilder _ build: () -> Validation) {
        self = build()
    }

    /// Whether every field passed its rules.
    public var isValid: Bool { failures.isEmpty }

    /// The messages of the failed fields, in declaration order (fields
    /// declared without messages make `isValid` false but add no message).
    public var errors: [String] { failures.compactMap(\.message) }
}

/// A field that broke a rule: the first of its rules that failed.
public struct ValidationFailure: Sendable, Equatable, CustomStringConvertible {
    /// The rule's name (`email`, `length(6...1000)`).
    public let rule: String
    /// The message given for it, if any.
    public let message: String?

    /// A failure of `rule`, with its message.
    public init(rule: String, message: String?) {
        self.rule = rule
        self.message = message
    }

    public var description: String { message ?? "failed rule \(rule)" }
}

/// Builds a ``Validation`` from ``Field``s, ``ArrayField``s and nested
/// `Validation`s, with `if`, `switch` and `for` as usual.
@resultBuilder
public enum ValidationBuilder {
    /// Result builder: one component.
    public static func buildExpression(_ field: Field) -> [ValidationFailure] {
        field.failure.map { [$0] } ?? []
    }

    /// Result builder: one component.
    public static func buildExpression<Element>(_ field: ArrayField<Element>) -> [ValidationFailure] {
        field.failure.map { [$0] } ?? []
    }

    /// Result builder: one component.
    public static func buildExpression(_ validation: Validation) -> [ValidationFailure] {
        validation.failures
    }

    /// Result builder: the components of a block, in order.
    public static func buildBlock(_ parts: [ValidationFailure]...) -> [ValidationFailure] {
        parts.flatMap { $0 }
    }

    /// Result builder: an `if` without `else` (nothing when false).
    public static func buildOptional(_ part: [ValidationFailure]?) -> [ValidationFailure] {
        part ?? []
    }

    /// Result builder: the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [ValidationFailure]) -> [ValidationFailure] {
        part
    }

    /// Result builder: the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [ValidationFailure]) -> [ValidationFailure] {
        part
    }

    /// Result builder: a `for` loop's components.
    public static func buildArray(_ parts: [[ValidationFailure]]) -> [ValidationFailure] {
        parts.flatMap { $0 }
    }

    /// Result builder: the finished value.
    public static func buildFinalResult(_ failures: [ValidationFailure]) -> Validation {
        Validation(failures: failures)
    }
}
