import Compose
import Foundation
import Karc

// @unchecked as Karc's base classes require (docs/porting.md): neither subclass adds stored state.
@CheckedSendable
package final class AccountDomain: Domain<String, AccountState, AccountCommand, AccountEvent> {}

/// `account`: the Karc model of the seed's README. While an account exists,
/// its `messaging` pipeline is active: six pipes take outgoing messages, and
/// a periodic swap exchanges them with the message server every tick.
@CheckedSendable
package final class AccountModel: Model<AccountDomain, String, AccountState, AccountCommand, AccountEffect, AccountEvent> {
    override package func reducer(state: AccountState, effect: AccountEffect) -> (AccountState, [AccountEvent]) {
        var state = state
        switch effect {
        case .updatingAccount(let account):
            guard state.account != account else { return (state, []) }
            state.account = account
            return (state, [UpdatedAccount(account: account)])
        case .deletingAccount:
            guard let account = state.account else { return (state, []) }
            state.account = nil
            return (state, [DeletedAccount(account: account)])
        case .receiving(let text):
            return (state, [ReceivedMessage(text: text)])
        }
    }

    /// A message sent while no account is registered: the messaging scope is
    /// off, and the sender is told to register, as `account.unregister` says.
    override package func refusal(of command: AccountCommand, in state: AccountState) -> (any Error)? {
        state.account == nil ? AccountNotRegistered() : nil
    }

    @ScopesBuilder
    override package func scopes(_ state: AccountState, _ i: Interactor) -> [Scope] {
        Injector<AccountStorage>()
        Injector<MessageServer>()
        i.main
        if state.account != nil {
            i.messaging
        }
    }
}

extension AccountModel.Interactor {
    func main() -> Pipeline {
        @Inject<AccountStorage, DefaultId>(environ) var storage
        @Inject<MessageServer, DefaultId>(environ) var server
        return Pipeline {
            // Restores the account saved by an earlier run.
            Pipe(id: "bootstrap", policy: .finite(count: 1)) { _, _ in
                if let account = storage.read() { try await sendEffects(.updatingAccount(account)) }
            }
            Pipe(id: "register", mode: .duplex(), source: commandSource) { (register: AccountCommands.Register, _) -> Result<Account, AccountError> in
                let validation = Validation {
                    Field(register.userEmail, named: "user-email", rules: .nonEmpty, .email)
                    Field(register.userPassword, named: "user-password", rules: .length(6...))
                }
                guard validation.isValid else { return .failure(.invalid(validation.errors)) }
                if let existing = await state.account {
                    // Signing in again registers the same account again: it is answered, unchanged.
                    return existing.email == register.userEmail ? .success(existing) : .failure(.alreadyRegistered(email: existing.email))
                }
                let account = Account(email: register.userEmail)
                try storage.save(account)
                try await sendEffects(.updatingAccount(account))
                // The server greets a new account at the next swap, in this command's trace.
                await server.welcome(account, context: TraceCarrier.current)
                return .success(account)
            }
            Pipe(id: "unregister", mode: .duplex(), source: commandSource) { (_: AccountCommands.Unregister, _) in
                guard await state.account != nil else { throw AccountNotRegistered() }
                try storage.delete()
                try await sendEffects(.deletingAccount)
            }
        }
    }

    func messaging() -> Pipeline {
        @Inject<MessageServer, DefaultId>(environ) var server
        let tick: Duration = environ.getConfig(key: DemoCluster.tickKey) ?? .seconds(1)
        // Typed apart from the default: `?? ContinuousClock()` would make the lookup ask for a ContinuousClock.
        let configured: (any Clock<Duration>)? = environ.getConfig(key: DemoCluster.clockKey)
        let clock = configured ?? ContinuousClock()
        let outbox = Outbox()
        return Pipeline(end: { _, _ in await outbox.close() }) {
            // Six pipes: at most six messages wait for the next swap.
            for slot in 1...6 {
                Pipe(id: "dispatch-outgoing-message-\(slot)", mode: .duplex(), source: commandSource) {
                    (command: AccountCommands.DispatchOutgoingMessage, _) -> String in
                    // The message keeps the sender's trace (TraceCarrier): its reply, a tick later, is the send's doing.
                    try await outbox.post(EncryptedMessage(encrypting: command.message), context: TraceCarrier.current)
                    return "sent: \(command.message)"
                }
            }
            // Every tick: the waiting messages out, the replies to the last swap's in.
            Pipe(id: "swap-messages", policy: .infinite) { _, _ in
                try await clock.sleep(for: tick)
                guard let account = await state.account else { return }
                let batch = await outbox.take()
                let replies = await server.swap(batch.map { ($0.message, $0.context) }, for: account)
                for entry in batch { entry.sent.resume() }
                for reply in replies {
                    // Received in the trace of the message it answers, not the timer's.
                    try await (reply.context ?? .current).run {
                        _ = try await sendEffects(.receiving(reply.message.decrypted))
                    }
                }
            }
        }
    }
}

package struct AccountNotRegistered: Error, CustomStringConvertible {
    package var description: String { "no account is registered: account.register user-email=… user-password=…" }
}
