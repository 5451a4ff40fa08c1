import KarcAsync
import KarcSynchronization
import Synchronization
import Testing
import TrellisTesting

@testable import Karc

protocol Clock2: Resource {}
final class Opened: Resource, Clock2 {
    static let log = KarcMutex<[String]>([])
    init() {}
    func open(configs: [String: any Sendable]) async throws { Self.log.withLock { $0.append("open \(configs["name"] as? String ?? "")") } }
    func close(configs: [String: any Sendable]) async throws { Self.log.withLock { $0.append("close") } }
}
final class NotAClock: Resource { init() {} }

@Suite(.serialized, .isolatedModels, .timeLimit(.minutes(1))) struct EnvironTests {
    @Test func acquisitionsAreCountedTheFirstOpensTheLastCloses() async throws {
        Opened.log.withLock { $0 = [] }
        let environ = Environ().register(Clock2.self, gatewayType: Opened.self).setConfig(key: "name", value: "main")
        try await environ.acquire(Clock2.self)
        try await environ.acquire(Clock2.self)
        #expect(environ.acquisitionCount(Clock2.self, id: DefaultId.shared) == 2)
        #expect(try await environ.resolve(Clock2.self) is Opened)
        try await environ.release(Clock2.self)
        #expect(Opened.log.withLock { $0 } == ["open main"])
        try await environ.release(Clock2.self)
        #expect(Opened.log.withLock { $0 } == ["open main", "close"])
        // Another id is another instance.
        try await environ.acquire(Clock2.self, id: "second")
        #expect(environ.acquisitionCount(Clock2.self, id: DefaultId.shared) == 0)
        try await environ.release(Clock2.self, id: "second")
    }

    @Test func concurrentFirstAcquisitionsOpenOnce() async throws {
        Opened.log.withLock { $0 = [] }
        let environ = Environ().register(Clock2.self, gatewayType: Opened.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { try await environ.acquire(Clock2.self) } }
            try await group.waitForAll()
        }
        #expect(Opened.log.withLock { $0.count } == 1)
        #expect(environ.acquisitionCount(Clock2.self, id: DefaultId.shared) == 8)
    }

    @Test func useReleasesEvenWhenTheOperationThrows() async throws {
        let environ = Environ().register(Clock2.self, gatewayType: Opened.self)
        await #expect(throws: Boom()) {
            try await environ.use(Clock2.self) { _ in throw Boom() }
        }
        #expect(environ.acquisitionCount(Clock2.self, id: DefaultId.shared) == 0)
    }

    @Test func errorsSayWhatIsMissingAndHowToFixIt() async throws {
        let environ = Environ()
        let unregistered = await #expect(throws: EnvironError.self) { try await environ.acquire(Clock2.self) }
        #expect(
            unregistered?.description
                == "no Clock2 is registered in this environ; call register(Clock2.self, gatewayType:) or register(acquire:release:)")
        let notAcquired = await #expect(throws: EnvironError.self) { try await environ.resolve(Clock2.self) }
        #expect(
            notAcquired?.description == "Clock2 (id default) is not acquired; add Injector<Clock2>() to the model's scopes, or use @Use")
        await #expect(throws: EnvironError.self) { try await environ.release(Clock2.self) }
        environ.register(Clock2.self, gatewayType: NotAClock.self)
        let mismatch = await #expect(throws: EnvironError.self) { try await environ.acquire(Clock2.self) }
        #expect(mismatch?.description == "gateway NotAClock does not conform to Clock2")
    }
}
