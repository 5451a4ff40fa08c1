/// The id of a model that has only one instance.
public struct DefaultId: Hashable, Sendable, CustomStringConvertible {
    /// The one default id.
    public static let shared = DefaultId()
    /// The default id (equal to every other).
    public init() {}
    public var description: String { "default" }
}

/// A type with an empty value: the initial state of a model.
public protocol Initable {
    /// The initial value, when a model is set up without one.
    init()
}
