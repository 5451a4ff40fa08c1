/// A value in a ``Store``'s state that stays the same in every store of a
/// ``ComponentTree`` holding a value with the same identifier.
///
/// ```swift
/// struct ExhibitionState: AnyState {
///     @Ref var specimen = SpecimenModel(id: "MY-MODEL-ID", name: "Funny Circle")
/// }
/// struct SpecimenState: AnyState {
///     @Ref var specimen: SpecimenModel     // given later: `state.$specimen = referred`
/// }
/// ```
///
/// Each state keeps its own copy, so a state stays a value: a write through
/// one `@Ref` (`state.specimen.name = "…"`) reaches every other store of the
/// tree that holds the same identifier as a change of *that* store's state,
/// and its `willChange` fires. Only active components' stores take part: a
/// component that leaves the tree keeps the value it had, and takes the
/// tree's current one when it becomes active again.
///
/// One identifier is one value in a tree: a value written with an
/// identifier others hold becomes theirs too (the last write wins), and one
/// change holding two different values for one identifier is reported on
/// ``ComponentTree/referenceConflicts``. Stores outside a tree (a service's)
/// keep their own copy and tell nobody.
///
/// Reading a `@Ref` that was declared without a value and never given one
/// is a programming error and stops the program, as reading a `nil` with
/// `!` does.
@propertyWrapper
public struct Ref<Value: Codable & Equatable & Identifiable & Sendable>: Sendable, Equatable where Value.ID: Sendable {
    /// Nil until a value is given (`@Ref var x: T` without one).
    var value: Value?

    /// A reference without a value yet: give it one with `state.$name = referred`.
    public init() {}

    /// A reference holding `wrappedValue`: `@Ref var specimen = SpecimenModel(…)`.
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    /// The value; setting it is a write every holder of its identifier in the tree takes.
    public var wrappedValue: Value {
        get {
            guard let value else { preconditionFailure(Self.unlinked) }
            return value
        }
        set { value = newValue }
    }

    /// What another state takes to hold the same value: `other.$name = state.$name`.
    public var projectedValue: Referred<Value> {
        get { Referred(wrappedValue) }
        set { value = newValue.value }
    }

    static var unlinked: String {
        "a @Ref of \(Value.self) was read before it was given a value: set it first (state.$name = referred)"
    }
}

extension Ref: Codable {
    /// Writes the value itself (`null` when it has none yet), so a persisted
    /// state reads as if it held the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }

    /// Reads what ``encode(to:)`` wrote: the value, or `null` for none yet.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}
