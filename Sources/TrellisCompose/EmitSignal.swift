import KarcCommand

/// Fires a signal emitter of a mounted component tree, as tapping its
/// button would: `cluster.send(action: EmitSignal("logIn.openResetPassword"), to: "auth")`.
/// (`@Memberwise`: a generated test writes it so too.)
@Memberwise
public struct EmitSignal: Sendable, Hashable, Codable {
    /// The emitter's path from the root component, as Swift writes it: `openSignUp`, `logIn.openResetPassword`.
    public var emitter: String

    /// Fires the emitter at `emitter`.
    public init(_ emitter: String) {
        self.emitter = emitter
    }
}

/// Sends a value through a value emitter of a mounted component tree, as
/// typing into its field would: `EmitValue("logIn.email", value: "jill@example.com")`.
@Memberwise
public struct EmitValue<Value: Sendable>: Sendable {
    /// The emitter's path from the root component, as Swift writes it: `logIn.email`.
    public var emitter: String
    /// The value sent: of the emitter's value type.
    public var value: Value

    /// Sends `value` through the emitter at `emitter`.
    public init(_ emitter: String, value: Value) {
        self.emitter = emitter
        self.value = value
    }
}

extension EmitValue: Equatable where Value: Equatable {}
extension EmitValue: Hashable where Value: Hashable {}
extension EmitValue: Encodable where Value: Encodable {}
extension EmitValue: Decodable where Value: Decodable {}

/// ``EmitSignal`` and ``EmitValue``, as the service reads them.
protocol EmitterAction: Sendable {
    var emitter: String { get }
    /// The value to send (`()` for a signal).
    var sentValue: any Sendable { get }
}

extension EmitSignal: EmitterAction, NamedCommandAction {
    var sentValue: any Sendable { () }
    package var commandPath: String { emitter }
}

extension EmitValue: EmitterAction, NamedCommandAction {
    var sentValue: any Sendable { value }
    package var commandPath: String { emitter }
}
