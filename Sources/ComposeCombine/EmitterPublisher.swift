import Compose

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension Emitter {
    /// The emitter's values as a Combine publisher that never fails: each
    /// subscriber observes the emitter from when it subscribes until it
    /// cancels (then the observation ends). Values that arrive while a
    /// subscriber has no demand are dropped, as a `PassthroughSubject` drops them.
    ///
    /// ```swift
    /// let cancellable = logIn.publisher.sink { print("Log In tapped.") }
    /// ```
    public var publisher: AnyPublisher<Value, Never> {
        Deferred {
            let subject = SubjectBox<Value>()
            let subscription = self.subscribe { subject.send($0) }
            return subject.subject.handleEvents(receiveCancel: { subscription.cancel() })
        }
        .eraseToAnyPublisher()
    }
}

/// A subject an emitter's observer sends into from whichever task delivers.
// Proof for @unchecked: `subject` is a `let`, and `PassthroughSubject.send` locks around its
// subscribers (Combine and OpenCombine both), so sending from several tasks is safe.
final class SubjectBox<Value>: @unchecked Sendable {
    let subject = PassthroughSubject<Value, Never>()
    func send(_ value: Value) { subject.send(value) }
}
