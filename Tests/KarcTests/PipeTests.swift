import TestSupport
import Testing
import TrellisTesting

@testable import Karc

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct PipeTests {
    @Test func aSimplexSendReturnsBeforeTheTrackRuns() async throws {
        let probe = Probe()
        let latch = Latch()
        let lab = try await LabModel.make(probe, latch: latch)
        #expect(try await lab.send(Slow()) is Void)
        #expect(await probe.wait { $0.contains("slow started") })
        #expect(!probe.log.contains("slow done"))
        latch.open()
        #expect(await probe.wait { $0.contains("slow done") })
        await LabModel.tearDown(id: lab.id)
    }

    @Test func aSimplexPipeAnswersWithItsInstantOutput() async throws {
        let probe = Probe()
        let lab = try await LabModel.make(probe)
        #expect(try await lab.send(Enqueue()) as? String == "queued")
        #expect(await probe.wait { $0.contains("enqueued") })
        await LabModel.tearDown(id: lab.id)
    }

    @Test func outroAndIntroShapeWhatFlowsThroughADrain() async throws {
        let probe = Probe()
        let lab = try await LabModel.make(probe)
        #expect(try await lab.send(Shout(text: "hi")) as? String == "HI")
        #expect(await probe.wait { $0.contains("relay:HI!") })
        await LabModel.tearDown(id: lab.id)
    }

    @Test func finitePipesRunTheirCountAndInfiniteOnesUntilStopped() async throws {
        let probe = Probe()
        // The heartbeat beats once a millisecond of this clock, and only when the test moves it.
        let clock = HandClock()
        let lab = try await LabModel.make(probe, clock: clock)
        // A millisecond each time something sleeps: the heartbeat between beats, or the
        // stubborn bootstrap between its attempts (a move it alone sees costs no beat).
        while probe.count("beat") < 5 {
            await clock.untilSleeping(count: 1)
            clock.advance(by: .milliseconds(1))
        }
        #expect(await probe.wait { $0.filter { $0 == "tick" }.count == 3 && $0.filter { $0 == "beat" }.count >= 5 })
        await LabModel.tearDown(id: lab.id)
        let beats = probe.count("beat")
        // Stopped (tearDown returns once the scopes have), the heartbeat no longer
        // sleeps on the clock, and moving it sets off no beat.
        #expect(clock.sleepers == 0)
        clock.advance(by: .seconds(1))
        #expect(probe.count("beat") == beats)
        #expect(probe.count("tick") == 3)
    }

    @Test func aRecoveringPipeAnswersTheErrorAndGoesOn() async throws {
        let probe = Probe()
        let lab = try await LabModel.make(probe)
        await #expect(throws: Boom()) { try await lab.send(Fragile(fail: true)) }
        #expect(try await lab.send(Fragile(fail: false)) as? String == "fine")
        #expect(probe.count("lab begin") == 1)
        await LabModel.tearDown(id: lab.id)
    }

    @Test func aRecoveringFinitePipeStartsOverUntilItSucceeds() async throws {
        let probe = Probe()
        let lab = try await LabModel.make(probe)
        #expect(await probe.wait { $0.contains("bootstrap ok after 3") })
        await LabModel.tearDown(id: lab.id)
    }

    @Test func aPipeThatDoesNotRecoverRestartsItsWholePipeline() async throws {
        let probe = Probe()
        let lab = try await LabModel.make(probe)
        #expect(await probe.wait { $0.contains("brittle begin") })
        await #expect(throws: Boom()) { try await lab.send(Brittle(fail: true)) }
        #expect(await probe.wait { $0.filter { $0 == "brittle begin" }.count == 2 })
        #expect(probe.count("brittle end") == 1)
        // The restarted pipeline takes commands again (its first restart has no pause).
        var answer: String?
        // Until it answers (a hang is the suite's time limit, named): under load the restart can take a while.
        // Polls: a pipeline's restart has no hook; a send is how to ask whether it takes commands again.
        while answer == nil, !Task.isCancelled {
            answer = try? await lab.send(Brittle(fail: false)) as? String
            if answer == nil { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(answer == "fine")
        await LabModel.tearDown(id: lab.id)
    }

    @Test func nPipesForOneCommandGiveItACapacityOfN() async throws {
        let latch = Latch()
        let probe = Probe()
        let lab = try await LabModel.make(probe, latch: latch)
        let held = (0..<3).map { _ in Task { try await lab.send(Hold()) as? String } }
        #expect(await probe.wait { $0.filter { $0 == "holding" }.count == 3 })
        let error = await #expect(throws: GateError.self) { try await lab.send(Hold()) }
        guard case .noReadyConsumer = error else { return #expect(Bool(false), "got \(String(describing: error))") }
        #expect(error?.description == "every consumer of Hold is busy (3 consumers attached) on commands of LabModel(\(lab.id)) (transient, anycast)")
        latch.open()
        for hold in held { #expect(try await hold.value == "released") }
        #expect(try await lab.send(Hold()) as? String == "released")
        await LabModel.tearDown(id: lab.id)
    }
}
