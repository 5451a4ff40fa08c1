/// A list in a ``Store``'s state whose elements stay the same, element by
/// element, in every store of a ``ComponentTree`` holding a value with the
/// same identifier (in a ``Ref`` or in another `@RefCollection`).
///
/// ```swift
/// struct ExhibitionState: AnyState {
///     @RefCollection var specimens = [
///         SpecimenModel(id: "FIRST", name: "Funny Circle"),
///         SpecimenModel(id: "SECOND", name: "Heavy Box"),
///     ]
/// }
/// // a child: SpecimenComponent(specimen: state.$specimens[0])
/// ```
///
/// A write to an element reaches the other holders of its identifier;
/// appending or removing elements changes this list only. See ``Ref`` for
/// the rules (each state keeps its own copy; the last write wins).
@propertyWrapper
public struct RefCollection<Value: Codable & Equatable & Identifiable & Sendable>: Sendable, Equatable where Value.ID: Sendable {
    /// The elements; a change of one is a write its identifier's other holders take.
    public var wrappedValue: [Value]

    /// A list holding `wrappedValue` (empty by default).
    public init(wrappedValue: [Value] = []) {
        self.wrappedValue = wrappedValue
    }

    /// Each element as another state takes it: `SpecimenComponent(specimen: state.$specimens[0])`.
    public var projectedValue: [Referred<Value>] {
        get { wrappedValue.map(Referred.init) }
        set { wrappedValue = newValue.map(\.value) }
    }
}

extension RefCollection: Codable {
    /// Writes the elements as a plain array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }

    /// Reads what ``encode(to:)`` wrote: a plain array.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode([Value].self)
    }
}
