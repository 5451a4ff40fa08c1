import KarcAsync
import KarcAttachProtocol
import KarcSynchronization

/// The shell's side of ``LineCredit``: a batch of lines waits here until
/// the app has room for it. The credit starts with the app's Welcome and
/// grows with each Credit; Ctrl-C and the end of input never wait here.
final class LineGate: Sendable {
    private struct State {
        var credit: LineCredit?
        var maxMessageBytes = 0
        /// Batches waiting for credit, in the order sent.
        var waiting: [(cost: Int, count: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        /// Waiting for the Welcome.
        var welcomeWaiters: [CheckedContinuation<Int?, Never>] = []
        var isClosed = false
    }

    private let state = KarcMutex(State())

    /// The app's Welcome: the credit to start with, and its largest message.
    func open(credit: Int, maxMessageBytes: Int) {
        let (ready, welcomed) = state.withLock { s in
            s.credit = LineCredit(window: credit)
            s.maxMessageBytes = maxMessageBytes
            defer { s.welcomeWaiters = [] }
            return (Self.release(&s), s.welcomeWaiters)
        }
        for waiter in welcomed { waiter.resume(returning: maxMessageBytes) }
        for waiter in ready { waiter.resume(returning: true) }
    }

    /// The app took lines costing `bytes`: more batches may go.
    func returned(_ bytes: Int) {
        let ready = state.withLock { s in
            s.credit?.returned(bytes)
            return Self.release(&s)
        }
        for waiter in ready { waiter.resume(returning: true) }
    }

    /// Waits until `lines` may be sent and spends their cost; false once the connection is gone.
    func acquire(_ lines: [String]) async -> Bool {
        let cost = LineCredit.cost(of: lines)
        return await withCheckedContinuation { continuation in
            let now = state.withLock { s -> Bool? in
                if s.isClosed { return false }
                guard s.waiting.isEmpty, var credit = s.credit, credit.allows(cost: cost, count: lines.count) else {
                    s.waiting.append((cost, lines.count, continuation))
                    return nil
                }
                credit.spend(cost)
                s.credit = credit
                return true
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// The largest message the app accepts, once it said (nil if the connection went first).
    func maxMessageBytes() async -> Int? {
        await withCheckedContinuation { continuation in
            let now = state.withLock { s -> Int?? in
                if s.isClosed { return .some(nil) }
                guard s.credit != nil else {
                    s.welcomeWaiters.append(continuation)
                    return nil
                }
                return .some(s.maxMessageBytes)
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// The connection is gone: nothing waiting will be sent.
    func close() {
        let (waiting, welcomed) = state.withLock { s in
            s.isClosed = true
            defer {
                s.waiting = []
                s.welcomeWaiters = []
            }
            return (s.waiting.map(\.continuation), s.welcomeWaiters)
        }
        for waiter in waiting { waiter.resume(returning: false) }
        for waiter in welcomed { waiter.resume(returning: nil) }
    }

    /// The batches that fit now, in order, their cost spent.
    private static func release(_ s: inout State) -> [CheckedContinuation<Bool, Never>] {
        guard var credit = s.credit else { return [] }
        var ready: [CheckedContinuation<Bool, Never>] = []
        while let first = s.waiting.first, credit.allows(cost: first.cost, count: first.count) {
            credit.spend(first.cost)
            ready.append(first.continuation)
            s.waiting.removeFirst()
        }
        s.credit = credit
        return ready
    }
}
