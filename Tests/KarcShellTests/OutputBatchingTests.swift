import Foundation
import KarcAsync
import KarcSynchronization
import Synchronization
import TestSupport
import Testing

@testable import KarcLanguage
@testable import KarcOutput
@testable import KarcSession
@testable import KarcShell

/// Output goes out in batches, but never waits behind a slow command: what
/// earlier commands printed is written once a send is out for a while.
@Suite("Output batching", .timeLimit(.minutes(1)))
struct OutputBatchingTests {
    struct Ping: Codable, Sendable {
        var slow: Bool?
        /// Answers at once, but the cluster stays busy until the test lets it go.
        var busy: Bool?
    }

    /// Answers `Ping` at once, or, for a slow one, when the test lets it.
    final class Gatekept: ShellCluster {
        let name = "test"
        let catalog = Catalog(targets: [TargetSchema(name: "echo", kind: "service", commands: [CommandSchema(Ping.self)])])
        /// Whether the test let go, and who waits for it: one lock, so a let-go between the two is not lost.
        let gate = KarcMutex<(released: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        let busy = KarcMutex(false)

        func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? {
            if (command as? Ping)?.busy == true { busy.withLock { $0 = true } }
            guard (command as? Ping)?.slow == true else { return "pong" }
            await untilLetGo()
            return "late pong"
        }

        private func untilLetGo() async {
            await withCheckedContinuation { continuation in
                let now = gate.withLock { gate in
                    if !gate.released { gate.waiter = continuation }
                    return gate.released
                }
                if now { continuation.resume() }
            }
        }

        func letGo() {
            gate.withLock { gate in
                gate.released = true
                return gate.waiter.take()
            }?.resume()
        }

        func takeRecords() -> [ShellRecord] { [] }
        func settled(timeout: Duration) async -> Bool {
            if busy.withLock({ $0 }) { await untilLetGo() }
            return true
        }
        func state(of target: String) async -> (any Sendable)? { nil }
    }

    @Test(arguments: ["slow=true", "busy=true"])
    func aFastCommandsReplyIsWrittenWhileASlowOneIsStillOutOrTheClusterBusy(_ slowStep: String) async throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let cluster = Gatekept()
        let commands = Task {
            let session = ShellSession(cluster: cluster, options: ShellOptions(), sink: OutputSink(output: writeEnd))
            let first = await session.execute("echo.ping", at: .init())
            return [first, await session.execute("echo.ping \(slowStep)", at: .init())]
        }
        let written = Recorder<String>()
        // The flush is an alarm's task on the shared pool: under ThreadSanitizer, on two cores,
        // the other suites can keep it from running for seconds.
        // Polls: what is read is a pipe's other end, written by an alarm on the shared pool.
        #expect(
            await eventually(within: .seconds(60)) {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(readEnd, &buffer, buffer.count)
                if count > 0 { written.record(String(decoding: buffer[..<count], as: UTF8.self)) }
                return written.values.joined().contains("pong")
            }, "the first reply was still buffered while the second command was out")
        #expect(!written.values.joined().contains("late pong"))
        cluster.letGo()
        #expect(await commands.value == [.succeeded, .succeeded])
    }
}
