/// Makes a ``Model`` or ``Domain`` subclass `Sendable`, checked.
///
/// A subclass of a non-final class cannot have its `Sendable` conformance
/// checked by the compiler, so Swift asks it to restate one `@unchecked`.
/// This attribute restates it only after checking the class's stored
/// properties: every `let` must be of a `Sendable` type (the compiler checks
/// that), and every `var` must be one no task can race on: kept in
/// ``Observed`` (a lock), isolated to a global actor (`@MainActor`, with the
/// states received through ``MainActorObserver``), or marked
/// `nonisolated(unsafe)` on your own word. Anything else is a compile error
/// that names the property.
///
/// ```swift
/// @CheckedSendable
/// final class CounterDomain: Domain<DefaultId, Counter, Increment, Counted> {
///     @Observed private(set) var counts: [Int] = []
///     override func observe(state: Counter) { $counts.modify { $0.append(state.count) } }
/// }
///
/// @CheckedSendable
/// final class CounterModel: Model<CounterDomain, DefaultId, Counter, Increment, CounterEffect, Counted> { … }
/// ```
@attached(extension, conformances: Sendable, names: named(_checkSendableProperties))
public macro CheckedSendable() = #externalMacro(module: "KarcMacros", type: "CheckedSendableMacro")

/// What `@CheckedSendable` expands to for each stored `let`: compiles only
/// when the property's type is `Sendable`. Not for direct use.
@inlinable
public func _checkSendable<Root, Value: Sendable>(_ property: KeyPath<Root, Value>) {}
