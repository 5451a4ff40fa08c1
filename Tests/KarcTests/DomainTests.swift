import KarcAsync
import Testing
import TrellisTesting

@testable import Karc

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct DomainTests {
    @Test func aDuplexSendAnswersWithTheTrackOutputASimplexSendWithVoid() async throws {
        let probe = Probe()
        let domain = try await CounterModel.make(probe)
        #expect(try await domain.send(Increment(by: 5)) as? Int == 5)
        #expect(try await domain.send(Note(text: "hi")) is Void)
        #expect(await probe.wait { $0.contains("note hi") })
        await CounterModel.tearDown(id: domain.id)
    }

    @Test func aCommandNoPipeTakesIsRefusedNamingItsType() async throws {
        struct Unknown: CounterCommand {}
        let domain = try await CounterModel.make()
        let error = await #expect(throws: ModelError.self) { try await domain.send(Unknown()) }
        #expect(error == .notTaken(model: "CounterModel(\(domain.id))", command: "Unknown"))
        await CounterModel.tearDown(id: domain.id)
    }

    @Test func receiveTakesTheNextEventOrTheNextOfAType() async throws {
        let domain = try await CounterModel.make()
        async let next: any CounterEvent = domain.receive()
        async let nextReset: WasReset = domain.receive()
        #expect(await Probe().wait { _ in domain.channel.value?.events.receiverCount == 2 })
        _ = try await domain.send(Increment())
        _ = try await domain.send(Reset())
        #expect(try await next as? Incremented == Incremented(count: 1))
        #expect(try await nextReset == WasReset())
        await CounterModel.tearDown(id: domain.id)
    }

    @Test func typedReceiversSkipOtherEvents() async throws {
        let probe = Probe()
        let domain = try await CounterModel.make(probe)
        let resets: AsyncThrowingStream<WasReset, any Error> = domain.receiver()
        // Resets are simplex: the send returns once the lone reset pipe took the
        // command, and the pipe stays busy until its track ran, a little after the
        // reduction (DuplexSend.md), so the second reset is sent once it is free.
        _ = try await domain.send(Increment())
        try await sendOnceFree(Reset(), to: domain)
        _ = try await domain.send(Increment())
        try await sendOnceFree(Reset(), to: domain)
        #expect(await probe.wait { $0.filter { $0 == "did 0" }.count == 2 })
        await CounterModel.tearDown(id: domain.id)
        var count = 0
        for try await _ in resets { count += 1 }
        #expect(count == 2)
    }

    /// Sends `command`, again while its only pipe is still busy with the one before; any other error is thrown.
    private func sendOnceFree(_ command: any CounterCommand, to domain: CounterDomain) async throws {
        while true {
            do {
                _ = try await domain.send(command)
                return
            } catch GateError.noReadyConsumer(_) {
                await Task.yield()
            }
        }
    }

    @Test func sendDetachedAndTheDrainAndSourceViews() async throws {
        let domain = try await CounterModel.make()
        #expect(await domain.sendDetached(Increment(by: 2)).value as? Int == 2)
        #expect(try await domain.commandDrain.send(Increment(by: 1)) as? Int == 3)
        let stream = domain.eventSource.receiver()
        _ = try await domain.send(Increment())
        for try await event in stream {
            #expect(event as? Incremented == Incremented(count: 4))
            break
        }
        await CounterModel.tearDown(id: domain.id)
    }
}
