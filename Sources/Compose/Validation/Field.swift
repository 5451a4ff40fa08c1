/// A value checked against rules, inside a `@ValidationBuilder`.
///
/// Rules run in order and the first that fails is the field's failure.
/// Give messages to have them in `Validation.errors`:
///
/// ```swift
/// Field(email, rules: .nonEmpty, .email)                      // isValid only
/// Field(email, rules: [.nonEmpty: "Email is required"])       // isValid and errors
/// Field(email, named: "email", rules: .nonEmpty, .email)      // errors like "email must not be empty"
/// ```
public struct Field: Sendable {
    let failure: ValidationFailure?

    /// Checks `value`; a failure makes the validation invalid without a message.
    public init<Value>(_ value: Value, rules: Rule<Value>...) {
        failure = rules.first { !$0.validate(value) }.map { ValidationFailure(rule: $0.name, message: nil) }
    }

    /// Checks `value`; a failure adds `"<name> <requirement>"` to the errors
    /// ("email must be an email address like name@example.com").
    public init<Value>(_ value: Value, named name: String, rules: Rule<Value>...) {
        failure = rules.first { !$0.validate(value) }.map {
            ValidationFailure(rule: $0.name, message: "\(name) \($0.requirement)")
        }
    }

    /// Checks `value`; a failure adds the failed rule's message to the errors.
    public init<Value>(_ value: Value, rules: KeyValuePairs<Rule<Value>, String>) {
        failure = rules.first { !$0.key.validate(value) }.map {
            ValidationFailure(rule: $0.key.name, message: $0.value)
        }
    }
}
