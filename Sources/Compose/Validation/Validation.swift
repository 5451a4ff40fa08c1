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
    public static func buildExpression(_ field: Field) -> [ValidationFailure] {
        field.failure.map { [$0] } ?? []
    }

    public static func buildExpression<Element>(_ field: ArrayField<Element>) -> [ValidationFailure] {
        field.failure.map { [$0] } ?? []
    }

    public static func buildExpression(_ validation: Validation) -> [ValidationFailure] {
        validation.failures
    }

    public static func buildBlock(_ parts: [ValidationFailure]...) -> [ValidationFailure] {
        parts.flatMap { $0 }
    }

    public static func buildOptional(_ part: [ValidationFailure]?) -> [ValidationFailure] {
        part ?? []
    }

    public static func buildEither(first part: [ValidationFailure]) -> [ValidationFailure] {
        part
    }

    public static func buildEither(second part: [ValidationFailure]) -> [ValidationFailure] {
        part
    }

    public static func buildArray(_ parts: [[ValidationFailure]]) -> [ValidationFailure] {
        parts.flatMap { $0 }
    }

    public static func buildFinalResult(_ failures: [ValidationFailure]) -> Validation {
        Validation(failures: failures)
    }
}
