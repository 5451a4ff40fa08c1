import Karc
import KarcAsync
import KarcSynchronization
import Synchronization

/// One pipe of each kind, recording what happens in the environ's probe.
struct Lab: Equatable, Initable, Sendable { var fragileFailures = 0 }

protocol LabCommand: Sendable {}
struct Slow: LabCommand {}
struct Enqueue: LabCommand {}
struct Shout: LabCommand { let text: String }
struct Fragile: LabCommand { let fail: Bool }
struct Brittle: LabCommand { let fail: Bool }
struct Hold: LabCommand {}

@CheckedSendable
final class LabDomain: Domain<String, Lab, LabCommand, Never> {}

@CheckedSendable
final class LabModel: Model<LabDomain, String, Lab, LabCommand, Never, Never> {
    @ScopesBuilder
    override func scopes(_ s: Lab, _ i: Interactor) -> [Scope] {
        i.lab
        i.brittle
    }
}

extension LabModel.Interactor {
    var probe: Probe { environ.probe }
    var latch: Latch { environ.getConfig(key: "latch") ?? Latch() }
    var attempts: Locked<Int> { environ.getConfig(key: "attempts") ?? Locked(0) }

    func lab() -> Pipeline {
        let relay = Gate<String, Void>(mode: .retainable, scheme: .anycast, label: "relay")
        return Pipeline(begin: { _, _ in probe.record("lab begin") }) {
            Pipe(id: "slow", mode: .simplex(), source: commandSource) { (_: Slow, _) in
                probe.record("slow started")
                await latch.wait()
                probe.record("slow done")
            }
            Pipe(id: "enqueue", mode: .simplex(instantOutput: "queued"), source: commandSource) { (_: Enqueue, _) in
                probe.record("enqueued")
            }
            Pipe(
                id: "shout",
                mode: .duplex(outro: { $0.map { "relay:\($0)" }*! }),
                source: commandSource,
                drain: relay
            ) { (shout: Shout, _) in shout.text.uppercased() }
            Pipe(id: "echo", mode: .simplex(intro: { $0.map { $0 + "!" }*! }), source: relay) { (text: String, _) in
                probe.record(text)
            }
            Pipe(id: "fragile", mode: .duplex(), source: commandSource) { (c: Fragile, _) -> String in
                if c.fail { throw Boom() }
                return "fine"
            }
            Pipe(id: "thrice", policy: .finite(count: 3)) { _, _ in probe.record("tick") }
            Pipe(id: "stubborn-bootstrap", policy: .finite(count: 1)) { _, _ in
                // Fails twice, then succeeds: a recovering finite pipe starts over until it does.
                let attempt = attempts.withLock {
                    $0 += 1
                    return $0
                }
                if attempt < 3 { throw Boom() }
                probe.record("bootstrap ok after \(attempt)")
            }
            for n in 1...3 {
                Pipe(id: "hold-\(n)", mode: .duplex(), source: commandSource) { (_: Hold, _) in
                    probe.record("holding")
                    await latch.wait()
                    return "released"
                }
            }
        }
    }

    func brittle() -> Pipeline {
        Pipeline(begin: { _, _ in probe.record("brittle begin") }, end: { _, _ in probe.record("brittle end") }) {
            Pipe(id: "brittle", recoverFromError: false, mode: .duplex(), source: commandSource) { (c: Brittle, _) -> String in
                if c.fail { throw Boom() }
                return "fine"
            }
            Pipe(id: "heartbeat", policy: .infinite) { _, _ in
                probe.record("beat")
                try await environ.clock.sleep(for: .milliseconds(1))
            }
        }
    }
}

struct Boom: Error, Equatable, CustomStringConvertible {
    var description: String { "boom" }
}

/// A value shared between test tasks.
final class Locked<Value: Sendable>: Sendable {
    private let storage: KarcMutex<Value>
    init(_ value: Value) { storage = KarcMutex(value) }
    var value: Value { storage.withLock { $0 } }
    func withLock<T>(_ body: (inout Value) -> T) -> T { storage.withLock { body(&$0) } }
}

extension LabModel {
    static func make(_ probe: Probe, latch: Latch = Latch(), clock: any Clock<Duration> = ContinuousClock()) async throws -> LabDomain {
        let id = "lab"
        let environ = Environ.probing(probe)
            .setConfig(key: "latch", value: latch)
            .setConfig(key: "attempts", value: Locked(0))
            .setClock(clock)
        try await setUp(Config(environ: environ, id: id))
        return try await LabDomain.get(id: id)
    }
}
