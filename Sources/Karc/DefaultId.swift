/// The id of a model that has only one instance.
public struct DefaultId: Hashable, Sendable, CustomStringConvertible {
    public static let shared = DefaultId()
    public init() {}
    public var description: String { "default" }
}

/// A type with an empty value: the initial state of a model.
public protocol Initable {
    init()
}
