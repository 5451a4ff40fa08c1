import Synchronization

/// Every set-up model, by domain type and id: what `Domain.get` looks up.
final class ModelPool: Sendable {
    static let shared = ModelPool()

    struct Key: Hashable, Sendable {
        let domain: ObjectIdentifier
        let id: String
    }

    struct Entry: Sendable {
        let domain: any AnyObject & Sendable
        let tearDown: @Sendable () async -> Void
    }

    private let entries = Mutex<[Key: Entry]>([:])

    static func key<Id: Hashable & Sendable>(_ domain: Any.Type, _ id: Id) -> Key {
        Key(domain: ObjectIdentifier(domain), id: "\(Id.self):\(id)")
    }

    /// Registers an entry; `false` when one with this key exists.
    func insert(_ key: Key, _ entry: Entry) -> Bool {
        entries.withLock { entries in
            guard entries[key] == nil else { return false }
            entries[key] = entry
            return true
        }
    }

    func domain(_ key: Key) -> (any AnyObject & Sendable)? {
        entries.withLock { $0[key]?.domain }
    }

    func remove(_ key: Key) -> Entry? {
        entries.withLock { $0.removeValue(forKey: key) }
    }
}
