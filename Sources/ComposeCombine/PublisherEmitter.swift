import Compose

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension Publisher where Output: Sendable, Failure == Never {
    /// The publisher's values as an emitter: subscribed at once, for as long
    /// as the emitter lives.
    public func emitter() -> PublisherEmitter<Output> {
        PublisherEmitter(self.map { $0 })
    }
}

extension Publisher where Output: Sendable {
    /// The publisher's values and its failure as an emitter of `Result`s
    /// (the seed's `fetchData.emitter() += { result in … }`): subscribed at
    /// once, for as long as the emitter lives.
    public func emitter() -> PublisherEmitter<Result<Output, Failure>> {
        PublisherEmitter(self.map { Result.success($0) }.catch { Just(Result.failure($0)) })
    }
}

/// An emitter fed by a Combine publisher (`publisher.emitter()`).
///
/// It subscribes to the publisher when it is made and remembers the last
/// value: each observer starts with it, if there is one, as with a
/// `CurrentValueSubject`, so an observer that comes after a `Future`
/// fulfilled still gets its result. The publisher's subscription ends when
/// the emitter is released.
public final class PublisherEmitter<Value: Sendable>: Emitter {
    private let relay = ValueEmitter<Value>()
    private let cancellable: CancellableBox

    init<P: Publisher>(_ publisher: P) where P.Output == Value, P.Failure == Never {
        let relay = self.relay
        cancellable = CancellableBox(publisher.sink { relay.send($0) })
    }

    /// Delivers the last value the publisher sent (if any), then every later one, to `handler`.
    public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Compose.Subscription {
        relay.withCurrent().subscribe(handler)
    }

    /// The last value the publisher sent, if any.
    public var lastValue: Value? { relay.lastValue }
}

/// Keeps a publisher's subscription for as long as its emitter lives.
// Proof for @unchecked: `cancellable` is a `let` that is only cancelled (on release, by its own
// deinit); `AnyCancellable.cancel` is safe to call from any thread.
final class CancellableBox: @unchecked Sendable {
    let cancellable: AnyCancellable
    init(_ cancellable: AnyCancellable) { self.cancellable = cancellable }
}
