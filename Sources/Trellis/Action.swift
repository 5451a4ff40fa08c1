/// Marks a type as an action. Optional: a cluster routes any `Sendable`
/// value by its type; conforming documents the intent (as in Trellis).
public protocol Action: Sendable {}

/// Any action: the classic seed's type-erased action, for flows and
/// redirects that mix action types (`ActionFlow<AnyAction>`, `Rewrite<AnyAction>`).
/// Every `Sendable` value is one, so no eraser is needed.
public typealias AnyAction = any Sendable
