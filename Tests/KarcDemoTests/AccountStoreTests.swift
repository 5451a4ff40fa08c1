import Testing
import TrellisTesting

@testable import KarcDemo

/// The demo's account through `ClusterTestStore`, on a clock the test moves:
/// a message leaves with the next swap, and its reply arrives with the one after.
@Suite(.timeLimit(.minutes(1)))
struct AccountStoreTests {
    @Test func aMessageLeavesWithASwapAndItsReplyComesWithTheNext() async throws {
        let store = try await ClusterTestStore { clock in try await DemoCluster.makeForTesting(tick: .seconds(1), clock: clock) }
        let registered = try await store.send(AccountCommands.Register(userEmail: "jill@example.com", userPassword: "s3cret!"), to: "account")
        #expect(registered as? Result<Account, AccountError> == .success(Account(email: "jill@example.com")))
        await store.receive(UpdatedAccount(account: Account(email: "jill@example.com")))
        store.assert("account", as: AccountState.self) { $0.account = Account(email: "jill@example.com") }

        // The send waits for the swap: a second of the test's clock, not of the wall's.
        let sent = try await store.send(AccountCommands.DispatchOutgoingMessage(message: "hello"), to: "account", advancingBy: .seconds(1))
        #expect(sent as? String == "sent: hello")
        // That swap brought the server's welcome to the new account.
        await store.receive(ReceivedMessage(text: "welcome to karc, jill@example.com"), from: "account")
        await store.advance(by: .seconds(1))
        await store.receive(ReceivedMessage(text: "re: hello (to jill@example.com)"), from: "account")

        // Nothing more comes however long the clock runs on.
        await store.advance(by: .seconds(5))
        await store.finish()
    }
}
