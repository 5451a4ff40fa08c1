/// Holds a non-`Sendable` iterator so an `AsyncThrowingStream(unfolding:)`
/// closure can pull from it. The actor serializes access: two iterators of the
/// same stream take turns instead of racing.
actor IteratorBox<Base: AsyncIteratorProtocol> where Base.Element: Sendable {
    private var base: Base?

    init(_ base: sending Base) {
        self.base = base
    }

    func next() async throws -> Base.Element? {
        guard var iterator = base.take() else { return nil }
        let element = try await iterator.next(isolation: self)
        // A finished iterator is dropped so later calls end at once.
        if element != nil { base = iterator }
        return element
    }
}

postfix operator *!

/// Erases any `AsyncSequence` to an `AsyncThrowingStream`, as the seed's pipe
/// `outro` closures do: `{ $0.flatMap { iterate(elements: $0) }*! }`.
public postfix func *! <S: AsyncSequence>(_ sequence: sending S) -> AsyncThrowingStream<S.Element, any Error>
where S.Element: Sendable, S.AsyncIterator: SendableMetatype {
    throwingStream(sequence)
}

/// `sequence` as an `AsyncThrowingStream`, pulled lazily element by element.
public func throwingStream<S: AsyncSequence>(_ sequence: sending S) -> AsyncThrowingStream<S.Element, any Error>
where S.Element: Sendable, S.AsyncIterator: SendableMetatype {
    let box = IteratorBox(sequence.makeAsyncIterator())
    return AsyncThrowingStream { try await box.next() }
}
