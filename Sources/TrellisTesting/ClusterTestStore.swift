import Clocks
import CustomDump
import Foundation
import KarcAsync
import KarcSynchronization
import Synchronization
import Testing
import Trellis

/// A cluster under test, asserted exhaustively, in the spirit of TCA's
/// `TestStore`: every event the cluster emits must be received, and every
/// target whose state changed must be asserted, or the test fails with a
/// readable diff of what was left.
///
/// ```swift
/// let store = try await ClusterTestStore { clock in try await makeShop(clock: clock) }
/// try await store.send(CartAction.add(name: "apple", quantity: 2), to: "cart")
/// await store.receive(CartEvent.added("apple"))
/// store.assert("cart", as: Cart.self) { $0.items["apple"] = 2 }
/// await store.finish()
/// ```
///
///     send ──▶ cluster ──▶ records (events, state changes) ──▶ unasserted
///                                                        │
///              receive(event) / assert(target) { … } ◀───┘   finish(): none left
///
/// Time is the test's: the factory gets a `TestClock` to hand to the
/// cluster's timers and periodic pipes, and `advance(by:)` moves it and
/// waits for the work it set off. A wait for an event that does not come
/// fails after ``timeout`` instead of hanging.
public final class ClusterTestStore {
    /// The cluster under test.
    public let cluster: Cluster
    /// The clock the factory was given.
    public let clock: TestClock<Duration>
    /// How long a send may keep the cluster busy, and a `receive(_:from:sourceLocation:)` wait for its event.
    public var timeout: Duration
    /// Off: events and state changes left unasserted are not failures
    /// (TCA's non-exhaustive testing): events not received before a send
    /// are let go at the send. What is asserted is still checked.
    public var isExhaustive = true

    let observation: ClusterObservation
    var events: [(source: String, event: any Sendable)] = []
    /// For each target whose state changed since it was last asserted: its state now.
    var changed: [String: any Sendable] = [:]
    /// Each target's state as last asserted (its state when the store began, at first).
    private var asserted: [String: any Sendable] = [:]
    var changeOrder: [String] = []

    /// The default ``timeout``: 5 s, or 60 s in a ThreadSanitizer build
    /// (`-DKARC_TSAN`, `make tsan`), which runs everything several times slower.
    /// A passing test never waits for it.
    // One declaration with the `#if` inside: a doc comment above an `#if` documents neither branch.
    public static let defaultTimeout: Duration = {
        #if KARC_TSAN
        .seconds(60)
        #else
        .seconds(5)
        #endif
    }()

    /// Makes the cluster with `make`, given the store's clock, and waits for its start-up work.
    public init(timeout: Duration = ClusterTestStore.defaultTimeout, _ make: (TestClock<Duration>) async throws -> Cluster) async throws {
        let clock = TestClock<Duration>()
        self.clock = clock
        self.timeout = timeout
        cluster = try await make(clock)
        observation = cluster.observe()
        _ = await cluster.settled(timeout: timeout)
        for target in cluster.targets {
            if let read = target.state { asserted[target.name] = await read() }
        }
    }

    /// Sends `action` (to `target` alone, when named), waits until the
    /// cluster has done the work it set off, and returns the reply. Events
    /// received earlier and not asserted fail the test first (exhaustively):
    /// receive them before sending more.
    @discardableResult
    public func send(_ action: any Sendable, to target: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (
        any Sendable
    )? {
        take()
        if isExhaustive, !events.isEmpty {
            Issue.record(
                "\(Self.count(events.count, "event")) received and not asserted before sending \(String(customDumping: action)):\n\(unassertedEvents)",
                sourceLocation: sourceLocation)
        }
        // Not exhaustive: what was not received before this send is let go, so a receive sees what it sets off.
        events.removeAll()
        do {
            let reply: (any Sendable)?
            if let target {
                reply = try await cluster.send(action: action, to: target)
            } else {
                reply = try await cluster.send(action: action)
            }
            await settle(sourceLocation)
            return reply
        } catch {
            await settle(sourceLocation)
            throw error
        }
    }

    /// Sends `action` and moves the clock on by `step` at a time until it
    /// replies: for a send that waits on a timer (a message that leaves with
    /// the next periodic swap, say). Before each step it lets the send and
    /// what the last step set off run until the send replies or nothing
    /// moves any more. Fails after ``timeout`` of steps.
    @discardableResult
    public func send(
        _ action: any Sendable, to target: String? = nil, advancingBy step: Duration, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (any Sendable)? {
        let cluster = cluster
        let done = KarcMutex(false)
        let sending = Task {
            defer { done.withLock { $0 = true } }
            if let target { return try await cluster.send(action: action, to: target) }
            return try await cluster.send(action: action)
        }
        var waited = Duration.zero
        // The send gets to its timer before the first step.
        await untilDoneOrStill(done)
        while !done.withLock({ $0 }), waited < timeout {
            await clock.advance(by: step)
            waited += step
            await untilDoneOrStill(done)
        }
        if !done.withLock({ $0 }) {
            Issue.record("\(String(customDumping: action)) did not reply after the clock moved on \(timeout)", sourceLocation: sourceLocation)
            sending.cancel()
        }
        let reply = try await sending.value
        await settle(sourceLocation)
        return reply
    }

    /// Waits until the send is done or the cluster stops moving: its work in
    /// flight the same over many turns of the executor, all of it waiting
    /// for a later step. Waiting for the cluster to be idle, as ``advance(by:sourceLocation:)``
    /// does, would wait for the send itself: had it got to its timer just
    /// after the step fired it, that would be a wait for a step that never comes.
    private func untilDoneOrStill(_ done: borrowing KarcMutex<Bool>) async {
        var last = cluster.workInFlight
        var still = 0
        // A cluster kept busy by something other than the test's clock never
        // stops moving: after this many turns the next step comes anyway.
        var turns = 0
        while still < 1_000, turns < 100_000, !done.withLock({ $0 }) {
            await Task.yield()
            turns += 1
            let now = cluster.workInFlight
            if now == last {
                still += 1
            } else {
                last = now
                still = 0
            }
        }
    }

    /// Moves the clock on by `duration` and waits for the work that set off.
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) async {
        await clock.advance(by: duration)
        await settle(sourceLocation)
    }

    /// A target's state now, typed.
    public func state<State>(_ target: String, as type: State.Type = State.self, sourceLocation: SourceLocation = #_sourceLocation) async -> State? {
        guard let read = cluster.target(named: target)?.state else {
            Issue.record(
                "no target named '\(target)' shows a state; targets: \(cluster.targets.map(\.name).joined(separator: ", "))",
                sourceLocation: sourceLocation)
            return nil
        }
        let state = await read()
        guard let typed = state as? State else {
            Issue.record("the state of '\(target)' is a \(Swift.type(of: state)), not a \(State.self)", sourceLocation: sourceLocation)
            return nil
        }
        return typed
    }

    /// Asserts `target`'s state: the state it was last asserted to have
    /// (its state when the store began, at first), changed by `update`, must
    /// be its state now. A mismatch fails with custom-dump's diff.
    public func assert<State: Equatable>(
        _ target: String, as type: State.Type = State.self, sourceLocation: SourceLocation = #_sourceLocation,
        _ update: (inout State) throws -> Void
    ) rethrows {
        take()
        guard let before = asserted[target] else {
            Issue.record(
                "no target named '\(target)' shows a state; targets: \(asserted.keys.sorted().joined(separator: ", "))",
                sourceLocation: sourceLocation)
            return
        }
        guard var expected = before as? State else {
            Issue.record("the state of '\(target)' is a \(Swift.type(of: before)), not a \(State.self)", sourceLocation: sourceLocation)
            return
        }
        try update(&expected)
        let now = changed[target] ?? before
        markAsserted(target, now)
        guard let actual = now as? State else { return }
        if actual != expected {
            let difference = diff(expected, actual, format: .proportional).map { "\n\($0)" } ?? ""
            Issue.record("the state of '\(target)' is not what was expected: (−expected, +actual)\(difference)", sourceLocation: sourceLocation)
        }
    }

    /// Asserts that `target`'s state has not changed since it was last asserted.
    public func assert<State: Equatable>(_ target: String, as type: State.Type = State.self, sourceLocation: SourceLocation = #_sourceLocation) {
        assert(target, as: type, sourceLocation: sourceLocation) { _ in }
    }

    /// Asserts that `target`'s state now is `expected`, with custom-dump's
    /// `expectNoDifference`: the whole state, not a change of the last
    /// asserted one (a generated test asserts each target's final state so).
    public func expectState<State: Equatable & Sendable>(
        _ target: String, toBe expected: State,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
        guard let actual = await state(target, as: State.self, sourceLocation: location) else { return }
        expectNoDifference(actual, expected, fileID: fileID, filePath: filePath, line: line, column: column)
        markAsserted(target, actual)
    }

    /// Asserts that `target`'s state now dumps (custom-dump) as `expected`: for a state that is not `Equatable` or `Decodable`.
    public func expectState(
        _ target: String, toDump expected: String,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
        guard let actual = await state(target, as: (any Sendable).self, sourceLocation: location) else { return }
        expectNoDifference(String(customDumping: actual), expected, fileID: fileID, filePath: filePath, line: line, column: column)
        markAsserted(target, actual)
    }

    private func markAsserted(_ target: String, _ state: any Sendable) {
        take()
        changed[target] = nil
        changeOrder.removeAll { $0 == target }
        asserted[target] = state
    }

    /// Ends the test: anything received and not asserted fails it (exhaustively); the cluster shuts down.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
        take()
        if isExhaustive {
            if !events.isEmpty {
                Issue.record("\(Self.count(events.count, "event")) received and not asserted:\n\(unassertedEvents)", sourceLocation: sourceLocation)
            }
            for target in changeOrder {
                guard let before = asserted[target], let now = changed[target] else { continue }
                let difference = diff(before, now, format: .proportional).map { "\n\($0)" } ?? ""
                Issue.record("the state of '\(target)' changed and was not asserted: (−asserted, +now)\(difference)", sourceLocation: sourceLocation)
            }
        }
        events.removeAll()
        changed.removeAll()
        changeOrder.removeAll()
        await cluster.shutDown()
    }
}
