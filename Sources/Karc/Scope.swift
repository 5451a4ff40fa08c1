import KarcAsync
import Logging

/// Something a model runs while its state calls for it: a ``Pipeline``, an
/// ``Injector`` or a submodel (see ``Model/scopes(_:_:)``).
///
/// Scopes are compared by ``key``: after each reduction that changes state,
/// scopes whose key appears start, and scopes whose key disappears stop.
public struct Scope: Sendable, CustomStringConvertible {
    /// Identity of the scope within its model, e.g. `pipeline messaging (default)`.
    public let key: ScopeKey
    let makeRunner: @Sendable () -> any ScopeRunner

    init(key: ScopeKey, makeRunner: @escaping @Sendable () -> any ScopeRunner) {
        self.key = key
        self.makeRunner = makeRunner
    }

    public var description: String { key.description }

    /// Whether both lists name the same scopes in the same order (compared
    /// after every change of state, so without building the key lists; a
    /// loop, because `elementsEqual(_:by:)` measured 7% slower on
    /// `karc.send.duplex`).
    static func haveSameKeys(_ a: [Scope], _ b: [Scope]) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices where a[index].key != b[index].key { return false }
        return true
    }
}

/// The identity of a ``Scope``.
public struct ScopeKey: Hashable, Sendable, CustomStringConvertible {
    /// What the scope is: `pipeline`, `injector` or `submodel`.
    public let kind: String
    /// The scope's name (a pipeline's tag, a model's type).
    public let name: String
    /// The scope's id, as text.
    public let id: String

    public var description: String { "\(kind) \(name) (\(id))" }
}

/// What a running scope needs from its model.
struct ScopeContext: Sendable {
    let environ: Environ
    let logger: Logger
    let modelUid: String
    /// Counts the deliveries pipes take from gates, when a cluster mounted the model.
    let activity: ActivityGauge?
    /// The model's name in the traces its timers start: its target's, when a cluster mounted it.
    let traceName: String
    /// Hears its pipes' failures, when a cluster mounted the model.
    var monitor: (any ModelMonitor)? = nil
}

/// A started scope; stopped once, when its key disappears or the model is torn down.
protocol ScopeRunner: AnyObject, Sendable {
    func start(_ context: ScopeContext) async
    func stop() async
}

/// Builds the scopes of a model from `if`/`else`, `for` and scope expressions.
@resultBuilder
public enum ScopesBuilder {
    /// Result builder: one component.
    public static func buildExpression(_ scope: Scope) -> [Scope] { [scope] }
    /// Result builder: one component.
    public static func buildExpression(_ pipeline: Pipeline) -> [Scope] { [pipeline.scope] }
    /// A pipeline factory method, as in the seed's `i.main`.
    public static func buildExpression(_ factory: () -> Pipeline) -> [Scope] { [factory().scope] }
    /// Result builder: one component.
    public static func buildExpression<R>(_ injector: Injector<R>) -> [Scope] { [injector.scope] }
    /// Result builder: one component.
    public static func buildExpression(_ submodel: Submodel) -> [Scope] { [submodel.scope] }
    /// Result builder: one component.
    public static func buildExpression(_ scopes: [Scope]) -> [Scope] { scopes }
    public static func buildBlock(_ parts: [Scope]...) -> [Scope] { parts.flatMap { $0 } }
    /// One part (the usual `i.main`): no variadic array, no flattening, on every change of state.
    public static func buildBlock(_ part: [Scope]) -> [Scope] { part }
    /// Result builder: an `if` without `else` (nothing when false).
    public static func buildOptional(_ part: [Scope]?) -> [Scope] { part ?? [] }
    /// Result builder: the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: [Scope]) -> [Scope] { first }
    /// Result builder: the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: [Scope]) -> [Scope] { second }
    /// Result builder: a `for` loop's components.
    public static func buildArray(_ parts: [[Scope]]) -> [Scope] { parts.flatMap { $0 } }
    /// Result builder: an `if #available` branch.
    public static func buildLimitedAvailability(_ part: [Scope]) -> [Scope] { part }
}
