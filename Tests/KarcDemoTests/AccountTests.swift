import Foundation
import KarcDemo
import TestSupport
import Testing
import Trellis

@Suite(.timeLimit(.minutes(1)))
struct AccountTests {
    let scratch = ScratchDirectory("karc-demo")
    var directory: String { scratch.path }

    func cluster(fresh: Bool = false, tick: Duration = .milliseconds(50), clock: any Clock<Duration> = ContinuousClock()) async throws -> Cluster {
        var options = DemoCluster.Options()
        options.tick = tick
        options.clock = clock
        options.stateDirectory = directory
        options.fresh = fresh
        return try await DemoCluster.make(options)
    }

    func account(_ cluster: Cluster) async throws -> Account? {
        let read = try #require(cluster.target(named: "account")?.state)
        return try #require(await read() as? AccountState).account
    }

    @Test func registerRepliesWithTheAccountAndASecondRegisterWithAFailure() async throws {
        let cluster = try await cluster()
        let first = try await cluster.send(action: AccountCommands.Register(userEmail: "jill@example.com", userPassword: "s3cret!"))
        #expect((first as? Result<Account, AccountError>) == .success(Account(email: "jill@example.com")))
        let second = try await cluster.send(action: AccountCommands.Register(userEmail: "chris@example.com", userPassword: "s3cret!"))
        #expect((second as? Result<Account, AccountError>) == .failure(.alreadyRegistered(email: "jill@example.com")))
        let invalid = try await cluster.send(action: AccountCommands.Register(userEmail: "x", userPassword: "1"))
        #expect(
            (invalid as? Result<Account, AccountError>)
                == .failure(
                    .invalid([
                        "user-email must be an email address like name@example.com", "user-password must be at least 6 characters long",
                    ])))
        await cluster.shutDown()
    }

    @Test func messagesGoOutOnATickAndRepliesComeBackLater() async throws {
        let cluster = try await cluster(fresh: true)
        let observation = cluster.observe()
        _ = try await cluster.send(action: AccountCommands.Register(userEmail: "jill@example.com", userPassword: "s3cret!"))
        let reply = try await cluster.send(action: AccountCommands.DispatchOutgoingMessage(message: "hello"))
        #expect(reply as? String == "sent: hello")
        let received = Recorder<String>()
        // Polls: the messages come from the account's swaps on the shared pool; the observation is read without waiting, as the shell reads it.
        #expect(
            await eventually {
                for record in observation.takeAvailable() {
                    if case .emitted(_, let event as ReceivedMessage) = record.kind { received.record(event.text) }
                }
                return received.count > 1
            })
        // The swap that takes `hello` brings the server's welcome; the next, the reply.
        #expect(received.values == ["welcome to karc, jill@example.com", "re: hello (to jill@example.com)"])
        await cluster.shutDown()
    }

    @Test func aSeventhWaitingMessageIsRefused() async throws {
        let cluster = try await cluster(fresh: true, tick: .seconds(2))
        _ = try await cluster.send(action: AccountCommands.Register(userEmail: "jill@example.com", userPassword: "s3cret!"))
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 1...7 {
                group.addTask {
                    (try? await cluster.send(action: AccountCommands.DispatchOutgoingMessage(message: "m\(index)"))) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 6)
        #expect(outcomes.filter { !$0 }.count == 1)
        await cluster.shutDown()
    }

    @Test func shuttingDownWithAMessageWaitingForItsSwapDoesNotHang() async throws {
        // The swaps wait on a clock nobody moves: the message can only wait.
        let cluster = try await cluster(fresh: true, clock: HandClock())
        _ = try await cluster.send(action: AccountCommands.Register(userEmail: "jill@example.com", userPassword: "s3cret!"))
        let waiting = Task { try await cluster.send(action: AccountCommands.DispatchOutgoingMessage(message: "late")) }
        // The send counts, and so does its delivery to the pipe, which then posts the message first thing.
        // Polls: work in flight is an activity gauge's count, whose only wait is for idle (a hook for a count is next).
        #expect(await eventually { cluster.workInFlight >= 2 })
        let stopped = Recorder<Bool>()
        // Unstructured, so a hang fails the expectation below instead of the whole run.
        Task {
            await cluster.shutDown()
            stopped.record(true)
        }
        try #require(await stopped.until { $0.count == 1 }, "shutDown waited for a swap 60 s away")
        await #expect(throws: (any Error).self) { try await waiting.value }
    }

    @Test func theAccountIsPersistedAndRestoredUnlessFresh() async throws {
        let first = try await cluster()
        _ = try await first.send(action: AccountCommands.Register(userEmail: "jill@example.com", userPassword: "s3cret!"))
        await first.shutDown()

        let second = try await cluster()
        // Polls: the second cluster reads the persisted account on its own pipe; an actor model's state has no change hook.
        #expect(await eventually { (try? await account(second)) == Account(email: "jill@example.com") })
        await second.shutDown()

        let fresh = try await cluster(fresh: true)
        // Restoring is start-up work: once the cluster has settled, it would have happened.
        #expect(await fresh.settled(timeout: .seconds(5)))
        #expect(try await account(fresh) == nil)
        await fresh.shutDown()
    }

    @Test func unregisterStopsMessagingAndAMessageSentThenSaysToRegister() async throws {
        let cluster = try await cluster(fresh: true)
        _ = try await cluster.send(action: AccountCommands.Register(userEmail: "jill@example.com", userPassword: "s3cret!"))
        try await cluster.send(action: AccountCommands.Unregister())
        #expect(try await account(cluster) == nil)
        await #expect(throws: AccountNotRegistered.self) {
            try await cluster.send(action: AccountCommands.DispatchOutgoingMessage(message: "late"))
        }
        await #expect(throws: AccountNotRegistered.self) { try await cluster.send(action: AccountCommands.Unregister()) }
        await cluster.shutDown()
    }
}
