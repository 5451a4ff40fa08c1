/// What one state hands another so that both hold the same value: the
/// `$` of a ``Ref`` or of a ``RefCollection``'s element.
///
/// It carries the value as it was when taken; assigned to another `@Ref`
/// (`state.$specimen = referred`), it gives that state the value, and the
/// two stay the same from then on while both stores are in one active tree.
public struct Referred<Value: Codable & Equatable & Identifiable & Sendable>: Sendable, Equatable where Value.ID: Sendable {
    /// The value when this was taken.
    public let value: Value

    /// What the value is known by in every store that holds it.
    public var id: Value.ID { value.id }

    /// A reference to `value`.
    public init(_ value: Value) {
        self.value = value
    }
}
