/// Something a target's state must always be: `stock never negative`.
/// Declared on a store or a model service with ``Service/invariant(_:_:)``;
/// the shell checks each after every command, and says which one a command
/// broke.
///
/// ```swift
/// Store(model: Inventory.self)
///     .mutate(on: Remove.self) { inventory, remove, _ in inventory.stock -= remove.count }
///     .invariant("stock never negative") { (inventory: Inventory) in inventory.stock >= 0 }
/// ```
public struct Invariant: Sendable {
    /// What holds, in the user's words.
    public let name: String
    private let check: @Sendable (any Sendable) -> Bool?

    /// An invariant of states of type `State`.
    public init<State>(_ name: String, _ holds: @escaping @Sendable (State) -> Bool) {
        self.name = name
        check = { state in (state as? State).map(holds) }
    }

    /// Whether it holds for `state`; nil when `state` is not of the type it is about.
    public func holds(for state: any Sendable) -> Bool? {
        check(state)
    }
}

extension Service {
    /// Declares that the state of the target below always satisfies `holds`
    /// (`State` is the store's model, or the model service's state); the
    /// shell checks it after each command and fails the command that broke it.
    public func invariant<State>(_ name: String, _ holds: @escaping @Sendable (State) -> Bool) -> ModifiedService<Self> {
        withContext { $0.invariants.append(Invariant(name, holds)) }
    }
}
