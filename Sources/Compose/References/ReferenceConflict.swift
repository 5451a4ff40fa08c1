/// One change of a state that held different values for one identifier
/// (two elements of a ``RefCollection``, or a ``Ref`` and an element, with
/// the same `id` and different contents). The last of them is kept, and
/// every holder of the identifier in the tree is given it; see
/// ``ComponentTree/referenceConflicts``.
public struct ReferenceConflict: Sendable, Equatable, CustomStringConvertible {
    /// The identified type and identifier: `SpecimenModel "MY-MODEL-ID"`.
    public let reference: String
    /// How many different values the change held for it.
    public let count: Int

    init(key: ReferenceKey, count: Int) {
        reference = key.description
        self.count = count
    }

    public var description: String {
        "\(count) different values of \(reference) in one state: identifiers must be unique; the last one is now every holder's"
    }
}
