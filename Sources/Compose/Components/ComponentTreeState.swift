/// What a bound ``ComponentTree`` shows, without a UI: where each active
/// router is, and what the stores of the active components hold. Each key
/// is the property's path from the root component, as Swift writes it.
///
/// ```swift
/// let app = ComponentTree(root: AuthComponent())
/// app.state.paths        // ["router": ["logIn"]]
/// app.root.openSignUp.send()
/// app.state.paths        // ["router": ["signUp"]]
/// app.state.stores       // ["signUp.form": SignUpForm(email: "")]
/// ```
public struct ComponentTreeState: Equatable, Sendable, Encodable {
    /// The stack of each active router, the root route first, by the
    /// router's path (`router`, `home.router`); each route as written after
    /// `\Self.` (`logIn`, `logIn.resetPassword`).
    public var paths: [String: [String]]
    /// The state of each `@Store` of an active component, by the store's
    /// path (`logIn.form`: the `form` store of the component at `logIn`).
    public var stores: [String: any AnyState]

    /// A state with these router stacks and store states.
    public init(paths: [String: [String]] = [:], stores: [String: any AnyState] = [:]) {
        self.paths = paths
        self.stores = stores
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.paths == rhs.paths, lhs.stores.count == rhs.stores.count else { return false }
        return lhs.stores.allSatisfy { key, value in rhs.stores[key].map { equal(value, $0) } ?? false }
    }

    private static func equal<State: AnyState>(_ lhs: State, _ rhs: any AnyState) -> Bool {
        (rhs as? State) == lhs
    }

    private enum CodingKeys: String, CodingKey { case paths, stores }

    /// `{"paths": {…}, "stores": {…}}`; a store state that is not `Encodable` is written as its description.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(paths, forKey: .paths)
        var nested = container.nestedContainer(keyedBy: StoreKey.self, forKey: .stores)
        for (key, value) in stores.sorted(by: { $0.key < $1.key }) {
            if let encodable = value as? any Encodable {
                try nested.encode(encodable, forKey: StoreKey(key))
            } else {
                try nested.encode(String(describing: value), forKey: StoreKey(key))
            }
        }
    }

    private struct StoreKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ key: String) { stringValue = key }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
