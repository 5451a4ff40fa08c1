/// Something you send values into, getting an `Output` back for each.
///
/// ``Gate`` is the usual drain; a model's effect drain is another (it reduces
/// inline and answers with the events the reducer emitted).
public protocol Drain<Input, Output>: Sendable {
    /// What the drain takes.
    associatedtype Input: Sendable
    /// What answers each value.
    associatedtype Output: Sendable

    /// Whether the drain refuses every further value.
    var isSealed: Bool { get }

    /// Sends one value and waits for the output that answers it.
    ///
    /// - Parameters:
    ///   - producerId: pairs the producer with a consumer on `unicast` gates.
    ///   - input: the value to send.
    /// - Returns: the output that answers it.
    ///
    /// `nonisolated(nonsending)`: it runs on the caller's executor, so a track
    /// that sends pays no switch of executor to enter it or to come back (a
    /// caller on the main actor does a ``Gate``'s bookkeeping there; a
    /// consumer's own work never runs on it). A conformer's plain `async`
    /// witness still conforms (it switches itself).
    @discardableResult
    nonisolated(nonsending) func send(producerId: UInt64, _ input: Input) async throws -> Output
}

extension Drain {
    /// Sends one value with a fresh producer id.
    @discardableResult
    nonisolated(nonsending) public func send(_ input: Input) async throws -> Output {
        try await send(producerId: GateIdentifier.next(), input)
    }

    /// Sends the elements as one array value: `effectDrain.send(.a, .b)`.
    @discardableResult
    nonisolated(nonsending) public func send<Element>(_ first: Element, _ rest: Element...) async throws -> Output
    where Input == [Element] {
        try await send(producerId: GateIdentifier.next(), [first] + rest)
    }

    /// Sends every value of `provider` in order, yielding the output of each.
    ///
    /// The stream ends when `provider` ends and fails with the first error.
    public func sender(
        producerId: UInt64 = GateIdentifier.next(),
        provider: AsyncThrowingStream<Input, any Error>
    ) -> AsyncThrowingStream<Output, any Error> {
        let box = IteratorBox(provider.makeAsyncIterator())
        return AsyncThrowingStream {
            guard let input = try await box.next() else { return nil }
            return try await self.send(producerId: producerId, input)
        }
    }
}
