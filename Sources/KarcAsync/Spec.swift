/// Which values a consumer takes from a ``Source``.
///
/// A consumer of a protocol-typed gate usually takes one concrete type:
/// `Spec<any Command>.type(RegisterAccount.self)`.
public struct Spec<Input>: Sendable {
    @usableFromInline let predicate: @Sendable (Input) -> Bool
    /// Human-readable description used in errors and logs.
    public let name: String

    /// A spec named `name` (in errors) that accepts the values `predicate` accepts.
    public init(_ name: String = "custom", _ predicate: @escaping @Sendable (Input) -> Bool) {
        self.name = name
        self.predicate = predicate
    }

    /// Whether the spec accepts `input`.
    @inlinable
    public func isSatisfied(by input: Input) -> Bool { predicate(input) }

    /// Takes every value.
    public static var all: Spec { Spec("all") { _ in true } }

    /// Takes only values whose dynamic type is `SubInput` (or a subtype of it).
    public static func type<SubInput>(_: SubInput.Type) -> Spec {
        Spec(String(describing: SubInput.self)) { $0 is SubInput }
    }
}
