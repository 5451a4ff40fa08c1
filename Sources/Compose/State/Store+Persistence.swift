extension Store where State: Codable {
    /// Saves, restores and purges the state through the store's storage.
    public var persistence: Persistence<State> {
        Persistence(store: self)
    }
}

/// The persistence actions of a ``Store`` (`$state.persistence.save()`).
///
/// `CodingKeys` on the state choose what is persisted; `restore()` gives the
/// properties left out their default values.
public struct Persistence<State: AnyState & Codable>: Sendable {
    let store: Store<State>

    /// Writes the current state to the storage.
    public func save() throws {
        try store.storage.save(store.wrappedValue)
    }

    /// Replaces the state with the stored one; returns false, changing
    /// nothing, when nothing is stored. A stored state that cannot be read
    /// throws and leaves both the state and the stored data as they were.
    @discardableResult
    public func restore() throws -> Bool {
        guard let restored = try store.storage.restore(State.self) else { return false }
        store.wrappedValue = restored
        return true
    }

    /// Erases the stored state (the state in memory is unchanged).
    public func purge() throws {
        try store.storage.purge()
    }
}
