// Step 6 of the seed README: the account registration workflow, in Swift Testing.
import Karc
import Testing
import TrellisTesting

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct SeedStep6Tests {

    @Test func model() async throws {
        // Creation of TestModel and corresponding TestDomain
        try await TestModel.setUp(TestModel.Config(environ: Environs.test))
        // Obtain event receiver to use it later
        let eventReceiver = try await TestDomain.get.receiver()
        // Send account registration command waiting for result
        // Will get result only after "register-account" pipe returns result from its track
        let result = try #require(
            try await TestDomain.get.send(
                RegisterAccount(userEmail: "test@email.com", userPassword: "qwerty")
            ) as? Result<Account, Error>)
        // Assert that proper account is registered
        switch result {
        case .success(let account):
            #expect(account == Account(email: "test@email.com", password: "qwerty"))
        case .failure(let error):
            Issue.record(error)
        }
        let account = try await TestDomain.get.state.account
        // Assert that state account is the same as expected
        #expect(account == Account(email: "test@email.com", password: "qwerty"))
        // The domain's observed property (main actor) holds it once the send has returned
        let domain = try await TestDomain.get
        #expect(await domain.account == Account(email: "test@email.com", password: "qwerty"))
        // We should receive the same event that was received inside "register-account" pipe
        for try await event in eventReceiver {
            // Assert that we received expected event with the same account
            #expect(
                event as? UpdatedAccount == UpdatedAccount(account: Account(email: "test@email.com", password: "qwerty"))
            )
            break
        }
        // Send account registration command second time waiting for result
        await #expect(throws: RuntimeError.self) {
            try await TestDomain.get.send(
                RegisterAccount(userEmail: "test@email.com", userPassword: "qwerty")
            )
        }
        // Destruction of TestModel (the seed defers it; Swift has no async defer)
        await TestModel.tearDown()
    }

}
