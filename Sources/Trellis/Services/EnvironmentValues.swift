/// A key for a value of ``EnvironmentValues``.
public protocol EnvironmentKey {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The value when no service sets one.
    static var defaultValue: Value { get }
}

/// Values a service tree passes down to its services; set for a subtree with
/// `.environment(\.key, value)`.
///
/// ```swift
/// extension EnvironmentValues {
///     var apiBaseURL: String {
///         get { self[APIBaseURLKey.self] }
///         set { self[APIBaseURLKey.self] = newValue }
///     }
/// }
/// ```
public struct EnvironmentValues: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    init() {}

    /// The value set for `key`, or its default.
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { values[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// What store handlers receive as `send`: by default the cluster's own.
    public var send: Send {
        get { self[SendKey.self] }
        set { self[SendKey.self] = newValue }
    }
}

private enum SendKey: EnvironmentKey {
    static var defaultValue: Send { Send { _ in throw TrellisError.noCluster } }
}
