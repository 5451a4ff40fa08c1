import Testing

@testable import KarcDemo

/// A test's demo cluster keeps its account in memory: saved and read back as
/// a file would be, never shared with another cluster, never left on disk.
@Suite(.timeLimit(.minutes(1)))
struct AccountStorageTests {
    @Test func anInMemoryAccountIsReadBackAsSavedUntilItIsDeleted() throws {
        let storage = AccountStorage.inMemory()
        #expect(try storage.read() == nil)
        try storage.save(Account(email: "jill@example.com"))
        try storage.save(Account(email: "chris@example.com"))
        #expect(try storage.read() == Account(email: "chris@example.com"))
        try storage.delete()
        #expect(try storage.read() == nil)
    }

    @Test func twoInMemoryStoragesShareNothing() throws {
        let first = AccountStorage.inMemory()
        try first.save(Account(email: "jill@example.com"))
        #expect(try AccountStorage.inMemory().read() == nil)
    }

    @Test func aTestsClusterStartsWithNoAccountWhateverAnotherRegistered() async throws {
        let first = try await DemoCluster.makeForTesting()
        _ = try await first.send(action: AccountCommands.Register(userEmail: "jill@example.com", userPassword: "s3cret!"))
        let second = try await DemoCluster.makeForTesting()
        let reply = try await second.send(action: AccountCommands.Register(userEmail: "chris@example.com", userPassword: "s3cret!"))
        #expect(reply as? Result<Account, AccountError> == .success(Account(email: "chris@example.com")))
        await first.shutDown()
        await second.shutDown()
    }
}
