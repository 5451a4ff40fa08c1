/// Every element of an array checked against rules, inside a `@ValidationBuilder`.
///
/// ```swift
/// ArrayField(articles, validIfEmpty: true, path: \Article.title, rules: .nonEmpty, .length(0...90))
/// ```
///
/// The field fails on the first element (in order) that breaks a rule, or,
/// with `validIfEmpty: false`, when the array is empty (rule `nonEmpty`).
public struct ArrayField<Element>: Sendable {
    let failure: ValidationFailure?

    /// Checks the property at `path` of every element; failures have no message.
    public init<Value>(
        _ array: [Element], validIfEmpty: Bool = true, path: KeyPath<Element, Value>, rules: Rule<Value>...
    ) {
        failure = Self.firstFailure(array, validIfEmpty: validIfEmpty, emptyMessage: nil) { element in
            let value = element[keyPath: path]
            return rules.first { !$0.validate(value) }.map { ValidationFailure(rule: $0.name, message: nil) }
        }
    }

    /// Checks the property at `path` of every element; a failure adds the failed rule's message.
    /// `emptyMessage` is the message when the array is empty and `validIfEmpty` is false.
    public init<Value>(
        _ array: [Element], validIfEmpty: Bool = true, emptyMessage: String? = nil,
        path: KeyPath<Element, Value>, rules: KeyValuePairs<Rule<Value>, String>
    ) {
        failure = Self.firstFailure(array, validIfEmpty: validIfEmpty, emptyMessage: emptyMessage) { element in
            let value = element[keyPath: path]
            return rules.first { !$0.key.validate(value) }.map { ValidationFailure(rule: $0.key.name, message: $0.value) }
        }
    }

    private static func firstFailure(
        _ array: [Element], validIfEmpty: Bool, emptyMessage: String?,
        _ check: (Element) -> ValidationFailure?
    ) -> ValidationFailure? {
        if array.isEmpty {
            return validIfEmpty ? nil : ValidationFailure(rule: "nonEmpty", message: emptyMessage)
        }
        for element in array {
            if let failure = check(element) { return failure }
        }
        return nil
    }
}
