import Karc
import KarcAsync
import Synchronization

/// Records what pipelines did, so tests can assert on the order of things.
final class Probe: Sendable {
    private let entries = KarcMutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var log: [String] { entries.withLock { $0 } }

    func count(_ entry: String) -> Int { log.filter { $0 == entry }.count }

    /// Waits until `condition` holds on the log (a hang is the suite's time limit, named).
    /// Polls: some conditions read state beside the log.
    func wait(_ condition: @Sendable ([String]) -> Bool) async -> Bool {
        var attempt = 0
        while !Task.isCancelled {
            if condition(log) { return true }
            attempt += 1
            if attempt < 1_000 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
        }
        return condition(log)
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
