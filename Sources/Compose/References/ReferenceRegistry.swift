import KarcSynchronization
import OrderedCollections

/// Keeps the identified values (``Ref``, ``RefCollection``) of one tree's
/// active stores the same.
///
///     a store changes ──▶ willChange ──▶ registry: its values that differ
///                                          from the tree's current ones
///                                            │ (under the registry's lock)
///                                            ▼
///                          every member store holding the same identifier
///                          written, each a change of its own state
///                                            │ (after the lock)
///                                            ▼
///                          their willChange delivered (to the registry too:
///                          nothing differs any more, so it stops there)
///
/// One per ``ComponentTree``, so trees (and tests) never see each other's
/// values. A store joins when its component becomes active and takes the
/// tree's current value of each identifier it holds; it leaves when its
/// component becomes inactive. Each change is read from the store as it is
/// when the registry gets to it, and every holder is written that value
/// under one lock, so concurrent writes end with every holder agreeing (the
/// last one handled wins).
final class ReferenceRegistry: Sendable {
    private struct Member {
        let store: any ReferencingStore
        var joins: Int
        var subscription: Subscription
        var held: Set<ReferenceKey> = []
    }

    private struct State {
        var members: [ObjectIdentifier: Member] = [:]
        /// The value every holder of an identifier has.
        var current: [ReferenceKey: any Sendable] = [:]
        /// How many members hold each identifier: one nobody holds is forgotten.
        var holders: [ReferenceKey: Int] = [:]
    }

    private let state = Locked(State())

    /// Emits each change that held two different values for one identifier.
    let conflicts = ValueEmitter<ReferenceConflict>()

    /// `store` takes part until the returned subscription is cancelled
    /// (once for each join: a store two components share joins twice).
    func join(_ store: any ReferencingStore) -> Subscription {
        let id = ObjectIdentifier(store)
        let isNew = state.withLock { s -> Bool in
            guard s.members[id] != nil else { return true }
            s.members[id]?.joins += 1
            return false
        }
        if isNew {
            // Observed before its values are read, so no change between the two is missed.
            let subscription = store.observeChanges { [weak self, weak store] in
                if let self, let store { self.changed(store) }
            }
            let (writes, conflicts) = state.withLock { s in
                s.members[id] = Member(store: store, joins: 1, subscription: subscription)
                return Self.update(&s, from: store, adopting: true)
            }
            finish(writes, conflicts)
        }
        return Subscription { [weak self, weak store] in
            if let self, let store { self.leave(store) }
        }
    }

    private func leave(_ store: any ReferencingStore) {
        let gone = state.withLock { s -> Subscription? in
            let id = ObjectIdentifier(store)
            guard var member = s.members[id] else { return nil }
            member.joins -= 1
            guard member.joins == 0 else {
                s.members[id] = member
                return nil
            }
            s.members[id] = nil
            Self.forget(member.held, in: &s)
            return member.subscription
        }
        gone?.cancel()
    }

    /// A member's state changed: what it now holds that differs becomes every holder's.
    private func changed(_ store: any ReferencingStore) {
        let (writes, conflicts) = state.withLock { s in
            guard s.members[ObjectIdentifier(store)] != nil else { return ([@Sendable () -> Void](), [ReferenceConflict]()) }
            return Self.update(&s, from: store, adopting: false)
        }
        finish(writes, conflicts)
    }

    /// Reads `store`'s values; each identifier's that differs from the
    /// current one is written to every member, unless `adopting` (a store
    /// joining), when the store takes the current one instead. Returns the
    /// deliveries to run once the lock is released, and the conflicts found.
    private static func update(
        _ s: inout State, from store: any ReferencingStore, adopting: Bool
    ) -> ([@Sendable () -> Void], [ReferenceConflict]) {
        var writes: [@Sendable () -> Void] = []
        var conflicts: [ReferenceConflict] = []
        // Each identifier's entries, identifiers in the order the state holds them.
        var values: OrderedDictionary<ReferenceKey, [ReferenceEntry]> = [:]
        for entry in store.referenceEntries() { values[entry.key, default: []].append(entry) }
        let id = ObjectIdentifier(store)
        let held = Set(values.keys)
        if let before = s.members[id]?.held {
            for key in held.subtracting(before) { s.holders[key, default: 0] += 1 }
            s.members[id]?.held = held
            forget(before.subtracting(held), in: &s)
        }
        for (key, entries) in values {
            let current = s.current[key]
            if adopting, let current {
                if let write = store.writeReference(current, for: key) { writes.append(write) }
                continue
            }
            let fresh = entries.filter { entry in current.map { !entry.holds($0) } ?? true }
            guard let value = fresh.last?.value else { continue }
            let distinct = fresh.reduce(into: [ReferenceEntry]()) { kept, entry in
                if !kept.contains(where: { $0.holds(entry.value) }) { kept.append(entry) }
            }
            if distinct.count > 1 { conflicts.append(ReferenceConflict(key: key, count: distinct.count)) }
            s.current[key] = value
            for member in s.members.values where member.held.contains(key) {
                if let write = member.store.writeReference(value, for: key) { writes.append(write) }
            }
        }
        return (writes, conflicts)
    }

    /// `keys` lost a holder each; one nobody holds any more is forgotten.
    private static func forget(_ keys: Set<ReferenceKey>, in s: inout State) {
        for key in keys {
            s.holders[key, default: 1] -= 1
            if s.holders[key] == 0 {
                s.holders[key] = nil
                s.current[key] = nil
            }
        }
    }

    private func finish(_ writes: [@Sendable () -> Void], _ conflicts: [ReferenceConflict]) {
        for write in writes { write() }
        for conflict in conflicts { self.conflicts.send(conflict) }
    }
}

/// A store whose state holds identified values, as the registry reads and writes it.
protocol ReferencingStore: AnyObject, Sendable {
    /// Every identified value its state holds now.
    func referenceEntries() -> [ReferenceEntry]
    /// Gives every place in its state that holds `key` the value `value`;
    /// returns the delivery of the change to run after the caller's lock, or nil when nothing changed.
    func writeReference(_ value: any Sendable, for key: ReferenceKey) -> (@Sendable () -> Void)?
    /// Calls `handler` after each change of its state.
    func observeChanges(_ handler: @escaping @Sendable () -> Void) -> Subscription
}
