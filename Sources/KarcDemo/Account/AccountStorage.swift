import Compose

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
