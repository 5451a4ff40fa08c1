// Step 1 of the seed README (karc-swift), with the mechanical changes listed
// in docs/porting.md: protocols refine Sendable, subclasses restate
// @unchecked Sendable.
import Karc
import Observation

struct Account: Equatable, Sendable {
    let email: String
    let password: String
}

struct DecryptedMessage: Equatable, Sendable {
    let text: String
}

struct EncryptedMessage: Equatable, Sendable {
    let cipher: String
}

struct TestState: Equatable, Initable, Sendable {
    var account: Account? = nil
}

protocol TestCommand: Sendable {}

struct RegisterAccount: TestCommand {
    let userEmail: String
    let userPassword: String
}

struct UnregisterAccount: TestCommand {}

struct DispatchOutgoingMessage: TestCommand {
    let message: DecryptedMessage
}

protocol TestEvent: Sendable {}

struct UpdatedAccount: TestEvent, Equatable {
    let account: Account
}

struct DeletedAccount: TestEvent {
    let account: Account
}

@Observable
final class TestDomain: Domain<DefaultId, TestState, TestCommand, TestEvent>, @unchecked Sendable {

    private(set) var account: Account?

    required init(id: DefaultId, state: TestState) {
        account = state.account
        super.init(id: id, state: state)
    }

    override func observe(state: TestState) {
        account = state.account
    }

}
