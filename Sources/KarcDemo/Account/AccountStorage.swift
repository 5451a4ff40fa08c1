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

    /// The account saved before, if any. One that cannot be read (a hand
    /// edit, a file of another version) is set aside beside it
    /// (`account.json.unreadable`), said on standard error, and the demo
    /// starts without it: a failing restore would be retried for ever, and
    /// every command would wait out `--timeout` on it.
    func read() -> Account? {
        guard !fresh else { return nil }
        do {
            return try storage.restore(Account.self)
        } catch {
            guard let file = storage as? FilePersistentStorage else { return nil }
            let aside = file.path + ".unreadable"
            try? FileManager.default.removeItem(atPath: aside)
            let kept = (try? FileManager.default.moveItem(atPath: file.path, toPath: aside)) != nil
            let note =
                "note: the saved account in \(file.path) cannot be read (\(error)); "
                + (kept ? "it is kept as \(aside), and the demo starts without it\n" : "the demo starts without it\n")
            FileHandle.standardError.write(Data(note.utf8))
            return nil
        }
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
