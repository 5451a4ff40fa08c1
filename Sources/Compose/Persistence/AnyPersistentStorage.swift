/// Somewhere a state can be saved to and restored from.
///
/// Conform to add a storage of your own; karc ships
/// ``EmptyPersistentStorage`` and ``FilePersistentStorage``.
public protocol AnyPersistentStorage: Sendable {
    /// Replaces the stored value with `value`.
    func save<Value: Encodable>(_ value: Value) throws
    /// The stored value, or nil when nothing is stored.
    func restore<Value: Decodable>(_ type: Value.Type) throws -> Value?
    /// Erases the stored value; nothing stored is not an error.
    func purge() throws
}

/// A storage that stores nothing: the default of a ``Store``.
public struct EmptyPersistentStorage: AnyPersistentStorage {
    /// A storage that keeps nothing.
    public init() {}
    public func save<Value: Encodable>(_ value: Value) throws {}
    public func restore<Value: Decodable>(_ type: Value.Type) throws -> Value? { nil }
    public func purge() throws {}
}
