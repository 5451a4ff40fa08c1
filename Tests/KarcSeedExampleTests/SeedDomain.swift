// Step 1 of the seed README (karc-swift), with the changes listed in
// docs/porting.md: protocols refine Sendable, subclasses carry
// @CheckedSendable, and the domain observes on the main actor.
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

// The seed's domain keeps a plain `var` that `observe(state:)` writes from
// the model's task while a view reads it: here the property is `@MainActor`
// and the states arrive on the main actor (`MainActorObserver`), so
// `@CheckedSendable` accepts it and nothing races.
@Observable
@CheckedSendable
final class TestDomain: Domain<DefaultId, TestState, TestCommand, TestEvent>, MainActorObserver {

    @MainActor private(set) var account: Account?

    @MainActor func observe(state: TestState) async {
        account = state.account
    }

}
