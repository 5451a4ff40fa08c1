/// A key for a value of ``EnvironmentValues``.
public protocol EnvironmentKey {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The value when no service sets one.
    static var defaultValue: Value { get }
}

/// Values a service tree passes down to its services; set for a subtree with
/// `.environment(\.key, value)`, read with ``Environment``.
///
/// ```swift
/// enum APIBaseURLKey: EnvironmentKey {
///     static var defaultValue: String { "https://api.example.com" }
/// }
/// extension EnvironmentValues {
///     var apiBaseURL: String {
///         get { self[APIBaseURLKey.self] }
///         set { self[APIBaseURLKey.self] = newValue }
///     }
/// }
///
/// struct Catalog: Service {
///     @Environment(\.apiBaseURL) var baseURL
///     var body: some Service {
///         Store(model: Products.self).mutate(on: Load.self) { products, _, _ in
///             products.source = baseURL  // the value set above this service, read when the action runs
///         }
///     }
/// }
///
/// Bootstrap { Catalog().environment(\.apiBaseURL, "https://staging.example.com") }
/// ```
public struct EnvironmentValues: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]
    /// Set by `.environment(_:_:)`: the services below bind these values
    /// while they run. A tree that sets none pays nothing for them.
    var isCustomized = false

    /// The values of the service running in this task (or whose body is
    /// being built); nil outside any, or in a service whose subtree sets none.
    @TaskLocal static var current: EnvironmentValues?

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
