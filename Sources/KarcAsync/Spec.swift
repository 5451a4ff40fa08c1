import Synchronization

/// Which values a consumer takes from a ``Source``.
///
/// A consumer of a protocol-typed gate usually takes one concrete type:
/// `Spec<any Command>.type(RegisterAccount.self)`.
public struct Spec<Input>: Sendable {
    @usableFromInline let predicate: @Sendable (Input) -> Bool
    /// Human-readable description used in errors and logs.
    public let name: String

    public init(_ name: String = "custom", _ predicate: @escaping @Sendable (Input) -> Bool) {
        self.name = name
        self.predicate = predicate
    }

    @inlinable
    public func isSatisfied(by input: Input) -> Bool { predicate(input) }

    /// Takes every value.
    public static var all: Spec { Spec("all") { _ in true } }

    /// Takes only values whose dynamic type is `SubInput` (or a subtype of it).
    public static func type<SubInput>(_: SubInput.Type) -> Spec {
        // Every send tests its value against the specs of the ready consumers; a
        // dynamic cast costs more than the rest of picking one, and a type's
        // answer never changes, so the last answers are kept.
        let memo = TypeTestMemo()
        return Spec(String(describing: SubInput.self)) { value in
            let type = dynamicType(of: value)
            if let known = memo.answer(for: type) { return known }
            let answer = value is SubInput
            memo.remember(answer, for: type)
            return answer
        }
    }
}

/// The last dynamic type a type test accepted and the last it refused.
final class TypeTestMemo: Sendable {
    private let accepted = Atomic<UInt>(0)
    private let refused = Atomic<UInt>(0)

    func answer(for type: Any.Type) -> Bool? {
        let key = UInt(bitPattern: ObjectIdentifier(type))
        if accepted.load(ordering: .relaxed) == key { return true }
        if refused.load(ordering: .relaxed) == key { return false }
        return nil
    }

    func remember(_ answer: Bool, for type: Any.Type) {
        let key = UInt(bitPattern: ObjectIdentifier(type))
        if answer { accepted.store(key, ordering: .relaxed) } else { refused.store(key, ordering: .relaxed) }
    }
}
