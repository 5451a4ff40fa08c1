import Testing
import TrellisTesting

@testable import Karc

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct ScopeTests {
    @Test func pipelinesStartAndStopAsTheStateCallsForThem() async throws {
        let probe = Probe()
        let panel = try await PanelModel.make(probe)
        #expect(await probe.wait { $0 == ["off begin"] })
        let refused = await #expect(throws: ModelError.self) { try await panel.send(Ping()) }
        #expect(refused == .notTaken(model: "PanelModel(\(panel.id))", command: "Ping"))

        _ = try await panel.send(Switch(on: true))
        // Activation finished before the send returned: the new pipeline takes Ping at once.
        #expect(try await panel.send(Ping()) as? String == "pong")
        #expect(await probe.wait { $0 == ["off begin", "off end", "on begin"] })

        _ = try await panel.send(Switch(on: false))
        await #expect(throws: ModelError.self) { try await panel.send(Ping()) }
        #expect(await probe.wait { $0.suffix(2) == ["on end", "off begin"] })
        await PanelModel.tearDown(id: panel.id)
    }

    @Test func tearDownReturnsOnlyOnceEveryScopeHasStopped() async throws {
        let probe = Probe()
        let panel = try await PanelModel.make(probe)
        _ = try await panel.send(Switch(on: true))
        await PanelModel.tearDown(id: panel.id)
        #expect(probe.log.last == "on end")
    }

    @Test func aTrackThatStopsItsOwnPipelineDoesNotDeadlock() async throws {
        let probe = Probe()
        let panel = try await PanelModel.make(probe)
        _ = try await panel.send(Switch(on: true))
        _ = try? await panel.send(StopMyself())
        #expect(await panel.state.isOn == false)
        #expect(await probe.wait { $0.contains("on end") })
        await #expect(throws: ModelError.self) { try await panel.send(Ping()) }
        await PanelModel.tearDown(id: panel.id)
    }

    @Test func submodelsLiveWhileTheirScopeDoes() async throws {
        let panel = try await PanelModel.make(Probe())
        _ = try await panel.send(SetChildren(ids: [1, 2]))
        let one = try await LeafDomain.get(id: "\(panel.id)-1")
        let two = try await LeafDomain.get(id: "\(panel.id)-2")
        _ = try await two.send(Bump())

        _ = try await panel.send(SetChildren(ids: [2]))
        await #expect(throws: ModelError.self) { try await LeafDomain.get(id: "\(panel.id)-1") }
        await #expect(throws: ModelError.self) { try await one.send(Bump()) }
        // The surviving child is the same model, with its state.
        #expect(try await LeafDomain.get(id: "\(panel.id)-2") === two)
        #expect(await two.state.count == 1)

        await PanelModel.tearDown(id: panel.id)
        await #expect(throws: ModelError.self) { try await LeafDomain.get(id: "\(panel.id)-2") }
    }

    @Test func injectedAndUsedResourcesAreHeldExactlyWhileNeeded() async throws {
        let probe = Probe()
        let panel = try await PanelModel.make(probe)
        _ = try await panel.send(SetInjecting(on: true))
        #expect(probe.log.contains("tracker opened"))
        _ = try await panel.send(SetTracking(on: true))
        #expect(try await panel.send(Track()) as? String == "tracker gadget")
        #expect(probe.count("gadget opened") == 1)

        // Stopping the pipeline releases what it used, not what the injector holds.
        _ = try await panel.send(SetTracking(on: false))
        #expect(await probe.wait { $0.contains("gadget closed") })
        #expect(!probe.log.contains("tracker closed"))

        _ = try await panel.send(SetInjecting(on: false))
        #expect(await probe.wait { $0.contains("tracker closed") })
        await PanelModel.tearDown(id: panel.id)
        #expect(probe.count("tracker opened") == 1)
        #expect(probe.count("gadget opened") == 1)
    }

    @Test func aPipelineWhoseInjectionIsMissingWaitsForItInsteadOfCrashing() async throws {
        let probe = Probe()
        let panel = try await PanelModel.make(probe)
        _ = try await panel.send(SetTracking(on: true))
        // No Injector<Tracker> scope: the tracked pipeline cannot start, so nothing takes Track.
        await #expect(throws: ModelError.self) { try await panel.send(Track()) }
        #expect(probe.count("gadget opened") == 0)
        // Once the injector is there, the pipeline's retry starts it.
        _ = try await panel.send(SetInjecting(on: true))
        var answer: String?
        // Until it answers (a hang is the suite's time limit, named): under load the restart can take a while.
        // Polls: a pipeline's restart has no hook; a send is how to ask whether it takes commands again.
        while answer == nil, !Task.isCancelled {
            answer = try? await panel.send(Track()) as? String
            if answer == nil { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(answer == "tracker gadget")
        await PanelModel.tearDown(id: panel.id)
    }
}
