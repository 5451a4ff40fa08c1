import KarcSynchronization
import Synchronization

@testable import KarcAsync

typealias IntGate = Gate<Int, String>

/// A consumer driven by hand: it is ready when attached, busy after `take()`
/// until `answer(_:)`.
final class ManualConsumer: Sendable {
    let consumer: SourceConsumer<Int, String>
    private let held = KarcMutex<Delivery<Int>?>(nil)

    init(_ gate: IntGate, id: UInt64 = GateIdentifier.next(), spec: Spec<Int> = .all, instant: String? = nil) {
        consumer = gate.makeConsumer(consumerId: id, spec: spec, instantOutput: instant)
    }

    /// Takes the next value and keeps it (the consumer is busy until it answers).
    @discardableResult
    func take() async throws -> Int {
        let delivery = try await consumer.next()
        held.withLock { $0 = delivery }
        return delivery?.input ?? -1
    }

    func answer(_ output: String) {
        if let delivery = held.withLock({ $0.take() }) { consumer.reply(to: delivery, with: .success(output)) }
    }

    func fail(_ error: any Error) {
        if let delivery = held.withLock({ $0.take() }) { consumer.reply(to: delivery, with: .failure(error)) }
    }
}

struct Boom: Error, Equatable {}

/// Counts how many times its iterator was asked for an element.
struct PullCounting<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
    typealias Element = Base.Element
    let base: Base
    private let counter = Locked(0)

    init(base: Base) { self.base = base }

    var pulls: Int { counter.value }

    struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let counter: Locked<Int>
        mutating func next() async throws -> Element? {
            counter.withLock { $0 += 1 }
            return try await base.next()
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), counter: counter) }
}

/// A value shared between test tasks.
final class Locked<Value: Sendable>: Sendable {
    private let storage: KarcMutex<Value>
    init(_ value: Value) { storage = KarcMutex(value) }
    var value: Value { storage.withLock { $0 } }
    func withLock<T>(_ body: (inout Value) -> T) -> T { storage.withLock { body(&$0) } }
}
