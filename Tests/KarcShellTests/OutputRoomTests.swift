import KarcAsync
import KarcSynchronization
import TestSupport
import Testing

@testable import KarcLanguage
@testable import KarcOutput
@testable import KarcSession

/// A session whose output has no room (an attached shell that stopped
/// reading) waits for room, taking the cluster's records meanwhile.
@Suite("Output room", .timeLimit(.minutes(1)))
struct OutputRoomTests {
    /// Room given by hand; counts the wakes registered, and says each registration as it comes.
    final class HandRoom: OutputRoom {
        private let state = KarcMutex<(room: Bool, wake: (@Sendable () -> Void)?, registered: Int)>((false, nil, 0))
        /// The count after each registration.
        let registrations: AsyncStream<Int>
        private let registering: AsyncStream<Int>.Continuation

        init() {
            (registrations, registering) = AsyncStream.makeStream()
        }

        var hasRoom: Bool { state.withLock { $0.room } }
        var registered: Int { state.withLock { $0.registered } }

        func onRoom(_ wake: @escaping @Sendable () -> Void) {
            let (count, ready) = state.withLock { s -> (Int, (@Sendable () -> Void)?) in
                s.registered += 1
                if s.room { return (s.registered, wake) }
                s.wake = wake
                return (s.registered, nil)
            }
            registering.yield(count)
            ready?()
        }

        /// The output fills up: no room until ``give()``.
        func take() {
            state.withLock { $0.room = false }
        }

        func give() {
            state.withLock { s -> (@Sendable () -> Void)? in
                s.room = true
                return s.wake.take()
            }?()
        }
    }

    /// A cluster whose records have ended (it shut down): `nextRecords` returns nil at once. Counts the asks.
    final class EndedCluster: ShellCluster {
        let asks = KarcMutex(0)
        var name: String { "ended" }
        var catalog: Catalog { Catalog(targets: []) }
        func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? { nil }
        func takeRecords() -> [ShellRecord] { [] }
        func nextRecords() async -> [ShellRecord]? {
            asks.withLock { $0 += 1 }
            return nil
        }
        func settled(timeout: Duration) async -> Bool { true }
        func state(of target: String) async -> (any Sendable)? { nil }
    }

    @Test func aSessionWithoutRoomWaitsForItWithoutSpinningWhenTheClusterHasEnded() async throws {
        let room = HandRoom()
        let cluster = EndedCluster()
        // A thread of its own: the shared one runs every other test's shells too.
        let runtime = ShellRuntime(executor: ShellExecutor(name: "karc-room-test"))
        let session = ShellSession(
            cluster: cluster, options: ShellOptions(), sink: OutputSink(forwarding: { _, _ in }, room: room), runtime: runtime)
        let waited = Task { await session.waitForRoom() }
        // The first wait asks the cluster, whose answer (at once) says its records ended; the session
        // then registers for room alone, and does not ask again (a wait that asked again would spin).
        for await count in room.registrations where count >= 1 { break }
        #expect(cluster.asks.withLock { $0 } == 1)
        room.give()
        #expect(await waited.value)
        // The session's waits run on its executor, one job after another: once a job queued
        // now has run, an ask a spinning wait had queued would have been made.
        await Task(executorPreference: runtime.executor) {}.value
        #expect(cluster.asks.withLock { $0 } == 1)
    }

    @Test func aSessionWithRoomDoesNotWait() async {
        let room = HandRoom()
        room.give()
        let session = ShellSession(cluster: EndedCluster(), options: ShellOptions(), sink: OutputSink(forwarding: { _, _ in }, room: room))
        #expect(await session.waitForRoom())
    }
}

/// Records come out in the order they happened, also when a wait for them
/// is given up on (a line entered, room come) just as a batch was taken.
@Suite("Records in order", .timeLimit(.minutes(1)))
struct RecordOrderTests {
    /// A cluster whose wait for records hands over a batch only once it is given
    /// up on (taken just as the wait ended), and which has newer ones beside it.
    final class LateCluster: ShellCluster {
        let newer = KarcMutex<[ShellRecord]>([.event(source: "c", event: "second")])
        var name: String { "late" }
        var catalog: Catalog { Catalog(targets: []) }
        func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? { nil }
        func takeRecords() -> [ShellRecord] {
            newer.withLock { records in
                defer { records = [] }
                return records
            }
        }
        func nextRecords() async -> [ShellRecord]? {
            let (ended, end) = AsyncStream.makeStream(of: Void.self)
            await withTaskCancellationHandler {
                for await _ in ended {}
            } onCancel: {
                end.finish()
            }
            return [.event(source: "c", event: "first")]
        }
        func settled(timeout: Duration) async -> Bool { true }
        func state(of target: String) async -> (any Sendable)? { nil }
    }

    @Test func aBatchTakenAsItsWaitWasGivenUpOnComesBeforeNewerRecords() async {
        let cluster = LateCluster()
        let waits = SessionWaits(
            cluster: cluster, runtime: ShellRuntime(executor: ShellExecutor(name: "karc-order-test")), interrupter: Interrupter())
        // Woken at once by something else (a line typed): the wait is given up on.
        let waited = await waits.nextRecords(until: nil, alsoWake: { wake in wake() })
        #expect(waited.isEmpty)
        let events = waits.takeRecords().compactMap { record -> String? in
            if case .event(_, let event) = record.kind { event as? String } else { nil }
        }
        #expect(events == ["first", "second"])
    }
}
