/// Reads a value of the ``EnvironmentValues`` set above a service with
/// `.environment(\.key, value)`, as SwiftUI's `@Environment` does for views.
///
/// Declare it in a service (or as a local variable in a handler); it reads
/// the value of the service that is running (in a `mutate` handler, a
/// receiving service's `receive`, a dispatcher's action) or whose `body` is
/// being built, and the key's default anywhere else.
///
/// ```swift
/// struct Catalog: Service {
///     @Environment(\.apiBaseURL) var baseURL
///     var body: some Service {
///         Store(model: Products.self).mutate(on: Load.self) { products, _, _ in products.source = baseURL }
///     }
/// }
/// ```
///
/// A handler's `send` parameter is the environment's ``EnvironmentValues/send``;
/// read that rather than `@Environment(\.send)`, which outside a subtree that
/// sets a value is the default (a `Send` that throws).
@propertyWrapper
public struct Environment<Value: Sendable>: Sendable {
    private let keyPath: KeyPath<EnvironmentValues, Value> & Sendable

    /// Reads the value at `keyPath`.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value> & Sendable) {
        self.keyPath = keyPath
    }

    /// The value now: the running service's, or the key's default.
    public var wrappedValue: Value {
        (EnvironmentValues.current ?? EnvironmentValues())[keyPath: keyPath]
    }
}
