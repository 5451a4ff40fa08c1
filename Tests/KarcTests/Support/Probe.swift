import Karc
import KarcAsync
import KarcSynchronization
import Synchronization
import TestSupport

/// Records what pipelines did, so tests can assert on the order of things.
final class Probe: Sendable {
    private let entries = KarcMutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var log: [String] { entries.withLock { $0 } }

    func count(_ entry: String) -> Int { log.filter { $0 == entry }.count }

    /// Waits until `condition` holds on the log (TestSupport's `eventually`: some conditions read state beside the log).
    func wait(_ condition: @escaping @Sendable ([String]) -> Bool) async -> Bool {
        // Polls: some conditions read a model's state beside the log, and a model's state has no change hook.
        await eventually { [self] in condition(log) }
    }
}

/// A latch a test opens to let blocked tracks go on.
final class Latch: Sendable {
    private let gate = Gate<Int, Void>(mode: .cumulative, scheme: .anycast)
    private let opened = KarcMutex(false)

    func wait() async {
        if opened.withLock({ $0 }) { return }
        _ = try? await gate.receive(instantOutput: ())
    }

    func open() {
        opened.withLock { $0 = true }
        Task { for _ in 0..<64 { try? await gate.send(0) } }
    }
}

/// Unique ids keep parallel tests apart in the model pool.
extension Environ {
    /// An environ whose pipelines can reach `probe`.
    static func probing(_ probe: Probe) -> Environ {
        Environ().setConfig(key: "probe", value: probe)
    }

    var probe: Probe { getConfig(key: "probe") ?? Probe() }
}
