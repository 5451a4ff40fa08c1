import KarcSynchronization
import Synchronization

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Batches the elements that arrive during each `interval`, measured on `clock`.
    ///
    /// Unlike `chunked(by:)` from swift-async-algorithms, a batch is emitted on
    /// **every** tick, empty or not: a periodic pipe (the seed's message swap)
    /// must run even when nothing new was sent. When the base ends, what is
    /// left is emitted and the stream ends; a base error is rethrown after it.
    ///
    /// Ticks fall at fixed instants counted from this call (`now + k·interval`),
    /// so a test clock advanced by one interval always produces one tick.
    public func collect<C: Clock>(interval: C.Duration, clock: C) -> AsyncThrowingStream<[Element], any Error> {
        batches(every: interval, on: clock)
    }

    /// What both `collect(interval:clock:)`s run (one name, so the existential one cannot call itself).
    private func batches<C: Clock>(every interval: C.Duration, on clock: C) -> AsyncThrowingStream<[Element], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[Element], any Error>.makeStream()
        let batch = Batch<Element>()
        let start = clock.now
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await element in self { batch.append(element) }
                        let rest = batch.drain()
                        if !rest.isEmpty { continuation.yield(rest) }
                        continuation.finish()
                    } catch {
                        let rest = batch.drain()
                        if !rest.isEmpty { continuation.yield(rest) }
                        continuation.finish(throwing: error)
                    }
                }
                group.addTask {
                    var tick = start.advanced(by: interval)
                    while (try? await clock.sleep(until: tick, tolerance: nil)) != nil {
                        continuation.yield(batch.drain())
                        tick = tick.advanced(by: interval)
                    }
                }
                // Whichever ends first (the base, or cancellation) ends both.
                await group.next()
                group.cancelAll()
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Batches the elements that arrive during each `interval` of `clock`, a
    /// clock known only as an existential (a model's `environ.clock`, say).
    public func collect(interval: Duration, clock: any Clock<Duration>) -> AsyncThrowingStream<[Element], any Error> {
        func open<C: Clock<Duration>>(_ clock: C) -> AsyncThrowingStream<[Element], any Error> {
            batches(every: interval, on: clock)
        }
        return open(clock)
    }

    /// Batches the elements that arrive during each `interval` of the continuous clock.
    public func collect(interval: Duration) -> AsyncThrowingStream<[Element], any Error> {
        collect(interval: interval, clock: ContinuousClock())
    }
}

/// The elements gathered since the last tick.
private final class Batch<Element: Sendable>: Sendable {
    private let elements = KarcMutex<[Element]>([])

    func append(_ element: Element) { elements.withLock { $0.append(element) } }

    func drain() -> [Element] {
        elements.withLock { elements in
            defer { elements = [] }
            return elements
        }
    }
}
