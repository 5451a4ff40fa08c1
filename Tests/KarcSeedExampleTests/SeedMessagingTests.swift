// Step 3 of the seed README: the messaging pipeline. Outgoing messages are
// encrypted by one of six pipes, batched every ten seconds (on the environ's
// clock: a hand clock here), swapped with the server, and come back
// decrypted through the incoming gate.
import Karc
import KarcAsync
import TestSupport
import Testing
import TrellisTesting

/// Where the messaging pipeline hands the messages it received (the seed's "handle decrypted incoming message").
actor Inbox {
    private(set) var messages: [DecryptedMessage] = []
    func receive(_ message: DecryptedMessage) { messages.append(message) }
}

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct SeedMessagingTests {
    @Test func outgoingMessagesAreSwappedOnATickAndComeBackDecrypted() async throws {
        let clock = HandClock()
        let inbox = Inbox()
        let environ = Environ()
            .register(StorageResource.self, gatewayType: StorageTestGateway.self)
            .register(WebResource.self, gatewayType: WebTestGateway.self)
            .setClock(clock)
            .setConfig(key: "inbox", value: inbox)
        try await TestModel.setUp(TestModel.Config(environ: environ))
        let domain = try await TestDomain.get
        // Messaging runs only with an account.
        _ = try await domain.send(RegisterAccount(userEmail: "test@email.com", userPassword: "qwerty"))

        let reply = try await domain.send(DispatchOutgoingMessage(message: DecryptedMessage(text: "hello")))
        #expect(reply as? EncryptedMessage == EncryptedMessage(cipher: "olleh"))
        #expect(await inbox.messages.isEmpty)  // nothing swapped before a tick

        // Ten seconds of the hand clock each time the batching waits for its next
        // tick, until the swap has brought the message back.
        while await inbox.messages.isEmpty {
            await clock.untilSleeping(count: 1)
            clock.advance(by: .seconds(10))
        }
        #expect(await inbox.messages == [DecryptedMessage(text: "hello")])
        await TestModel.tearDown()
    }
}
