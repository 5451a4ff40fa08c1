// Steps 2–5 of the seed README.
import Foundation
import Karc

enum TestEffect: Sendable {
    case updatingAccount(_ account: Account)
    case deletingAccount
}

struct RuntimeError: Error, LocalizedError {
    let message: String
    init(_ message: String) { self.message = message }
    var errorDescription: String? { message }
}

struct AccountAlreadyRegisteredError: Error, LocalizedError {
    var errorDescription: String? { "Account is already registered" }
}

typealias AccountIsAlreadyRegisteredError = AccountAlreadyRegisteredError

@CheckedSendable
class TestModel: Model<TestDomain, DefaultId, TestState, TestCommand, TestEffect, TestEvent> {

    override var loggerEnabled: Bool {
        true
    }

    override func reducer(state: TestState, effect: TestEffect) -> (TestState, [TestEvent]) {
        switch effect {
        case .updatingAccount(let account):
            if state.account == account {
                return (state, [])
            }
            var newState = state
            newState.account = account
            return (newState, [UpdatedAccount(account: account)])
        case .deletingAccount:
            if let account = state.account {
                var newState = state
                newState.account = nil
                return (newState, [DeletedAccount(account: account)])
            }
            return (state, [])
        }
    }

    @ScopesBuilder
    override func scopes(_ s: TestState, _ i: Interactor) -> [Scope] {
        ChildModel.submodel()
        Injector<StorageResource>()
        i.main
        if s.account != nil {
            i.messaging
        }
    }

}

extension TestModel.Interactor {

    fileprivate func main() -> Pipeline {
        @Inject<StorageResource, DefaultId>(environ) var storage
        @Use<WebResource, DefaultId>(environ) var web
        return Pipeline {
            Pipe(id: "bootstrap", policy: .finite(count: 1)) { _, context in
                if let account = await storage.readAccount() {
                    context.logInfo("Restored account: \(account)")
                    try await sendEffects(.updatingAccount(account))
                } else {
                    context.logInfo("No stored account")
                }
            }
            Pipe(
                id: "register-account",
                mode: .duplex(),
                source: commandSource
            ) { (command: RegisterAccount, context: PipeContext) -> Result<Account, Error> in
                if await state.account != nil {
                    throw RuntimeError("Account is already registered!")
                }
                let account = try await web.register(
                    userEmail: command.userEmail,
                    userPassword: command.userPassword)
                await storage.saveAccount(account)
                context.logInfo("Account is registered")
                let events = try await effectDrain.send([.updatingAccount(account)])
                if let event = events.first as? UpdatedAccount {
                    return .success(event.account)
                } else {
                    return .failure(AccountAlreadyRegisteredError())
                }
            }
            Pipe(
                id: "unregister-account",
                mode: .simplex(),
                source: commandSource
            ) { (command: UnregisterAccount, context: PipeContext) in
                guard let account = await state.account else {
                    throw RuntimeError("Account is already unregistered!")
                }
                await storage.deleteAccount()
                try await sendEffects(.deletingAccount)
                try await web.unregister(account: account)
                context.logInfo("Account is unregistered")
            }
            Pipe(id: "updated-account", mode: .simplex(), source: eventSource) { (event: UpdatedAccount, context: PipeContext) in
                context.logInfo("Account is updated")
            }
            Pipe(id: "deleted-account", mode: .simplex(), source: eventSource) { (event: DeletedAccount, context: PipeContext) in
                context.logInfo("Account is deleted")
            }
        }
    }

    fileprivate func messaging() -> Pipeline {
        @Inject<StorageResource, DefaultId>(environ) var storage
        @Use<WebResource, DefaultId>(environ) var web
        let incomingMessageGate = Gate<EncryptedMessage, Void>(mode: .retainable(), scheme: .anycast)
        let outgoingMessageGate = Gate<EncryptedMessage, Void>(mode: .retainable(), scheme: .anycast)
        return Pipeline(
            begin: { _, context in
                context.logInfo("start messaging...")
            },
            end: { _, context in
                context.logInfo("stop messaging...")
            }
        ) {
            for i in 1...6 {
                Pipe(
                    id: "dispatch-outgoing-message-\(i)",
                    mode: .duplex(),
                    source: commandSource,
                    drain: outgoingMessageGate
                ) { (command: DispatchOutgoingMessage, context: PipeContext) -> EncryptedMessage in
                    let decryptedMessage = command.message
                    let encryptedMessage: EncryptedMessage = try encryptMessage(decryptedMessage)
                    return encryptedMessage
                }
            }
            Pipe(
                id: "accept-incoming-message",
                mode: .simplex(),
                source: incomingMessageGate
            ) { (encryptedMessage: EncryptedMessage, context: PipeContext) async throws -> Void in
                let decryptedMessage = try decryptMessage(encryptedMessage)
                // handle decrypted incoming message
                context.logInfo("received \(decryptedMessage.text)")
                let inbox: Inbox? = environ.getConfig(key: "inbox")
                await inbox?.receive(decryptedMessage)
            }
            Pipe(
                id: "swap-encrypted-messages",
                mode: .simplex(
                    intro: { [environ] in $0.collect(interval: .seconds(10), clock: environ.clock) },
                    outro: { $0.flatMap { iterate(elements: $0) }*! }
                ),
                source: outgoingMessageGate,
                drain: incomingMessageGate
            ) { outgoingMessages, context in
                guard let account = await state.account else {
                    throw RuntimeError("Account is not registered!")
                }
                let incomingMessages = try await web.swap(messages: outgoingMessages, account: account)
                return incomingMessages
            }
        }
    }

    private func encryptMessage(_ decryptedMessage: DecryptedMessage) throws -> EncryptedMessage {
        EncryptedMessage(cipher: String(decryptedMessage.text.reversed()))
    }

    private func decryptMessage(_ encryptedMessage: EncryptedMessage) throws -> DecryptedMessage {
        DecryptedMessage(text: String(encryptedMessage.cipher.reversed()))
    }

}
