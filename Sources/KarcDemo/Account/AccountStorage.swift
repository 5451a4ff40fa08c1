import Compose
import Foundation
import Synchronization

/// Where the account is kept between runs (an `Environ` resource): Compose
/// file persistence, `<state dir>/account.json`. With `fresh`, what was
/// stored before is ignored (and replaced by the next save).
package final class AccountStorage: Sendable {
    let storage: any AnyPersistentStorage
    let fresh: Bool

    package init(directory: String?, fresh: Bool) {
        storage = FilePersistentStorage(key: "account", directory: directory)
        self.fresh = fresh
    }

    private init(storage: any AnyPersistentStorage) {
        self.storage = storage
        fresh = false
    }

    /// Kept in memory for the cluster's life, starting empty: a test's
    /// cluster, which leaves no file behind.
    package static func inMemory() -> AccountStorage {
        AccountStorage(storage: MemoryStorage())
    }

    func read() throws -> Account? {
        fresh ? nil : try storage.restore(Account.self)
    }

    func save(_ account: Account) throws {
        try storage.save(account)
    }

    func delete() throws {
        try storage.purge()
    }
}

/// The value saved last, as the JSON a file would hold: a save and a restore
/// encode and decode as ``FilePersistentStorage``'s do.
private final class MemoryStorage: AnyPersistentStorage {
    private let saved = Mutex<Data?>(nil)

    func save<Value: Encodable>(_ value: Value) throws {
        let data = try JSONEncoder().encode(value)
        saved.withLock { $0 = data }
    }

    func restore<Value: Decodable>(_ type: Value.Type) throws -> Value? {
        try saved.withLock { $0 }.map { try JSONDecoder().decode(type, from: $0) }
    }

    func purge() throws {
        saved.withLock { $0 = nil }
    }
}
