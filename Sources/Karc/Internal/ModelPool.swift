import KarcAsync
import KarcSynchronization
import Synchronization

/// Set-up models, by domain type and id: what `Domain.get` looks up.
///
/// A cluster has a pool of its own, current (a task-local) while it builds,
/// handles a send, and shuts down, and inherited by the tasks its models
/// start: two clusters in one process, or two tests, may use the same model
/// ids. Code outside any cluster (a model set up by hand, as the seed's
/// examples do) uses the process-wide pool.
package final class ModelPool: Sendable {
    /// The pool of code outside any cluster.
    static let shared = ModelPool()

    /// The pool of the cluster whose work the current task does, if any.
    @TaskLocal package static var current: ModelPool?

    /// The pool `Domain.get`, `setUp` and `tearDown` use now.
    static var active: ModelPool { current ?? shared }

    package init() {}

    /// Whether work on this pool's models needs it made current: it holds a
    /// model and is not current already. (Making it current costs a
    /// task-local push, a fifth of a store's send; a cluster without models
    /// skips it.)
    package var needsMakingCurrent: Bool { !isEmpty && Self.current !== self }

    /// Runs `body` with this pool current, when it ``needsMakingCurrent``.
    package nonisolated(nonsending) func makeCurrent<T>(_ body: nonisolated(nonsending) () async throws -> T) async rethrows -> T {
        guard needsMakingCurrent else { return try await body() }
        return try await Self.$current.withValue(self) { try await body() }
    }

    struct Key: Hashable, Sendable {
        let domain: ObjectIdentifier
        let id: String
    }

    struct Entry: Sendable {
        let domain: any AnyObject & Sendable
        let tearDown: @Sendable () async -> Void
    }

    private let entries = KarcMutex<[Key: Entry]>([:])
    /// How many entries there are, read without the lock.
    private let count = Atomic<Int>(0)

    /// Whether no model is registered: a cluster without models need not make its pool current.
    package var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }

    static func key<Id: Hashable & Sendable>(_ domain: Any.Type, _ id: Id) -> Key {
        Key(domain: ObjectIdentifier(domain), id: "\(Id.self):\(id)")
    }

    /// Registers an entry; `false` when one with this key exists.
    func insert(_ key: Key, _ entry: Entry) -> Bool {
        entries.withLock { entries in
            guard entries[key] == nil else { return false }
            entries[key] = entry
            count.add(1, ordering: .relaxed)
            return true
        }
    }

    func domain(_ key: Key) -> (any AnyObject & Sendable)? {
        entries.withLock { $0[key]?.domain }
    }

    func remove(_ key: Key) -> Entry? {
        entries.withLock { entries in
            let removed = entries.removeValue(forKey: key)
            if removed != nil { count.subtract(1, ordering: .relaxed) }
            return removed
        }
    }
}
