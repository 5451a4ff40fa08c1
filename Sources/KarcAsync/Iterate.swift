import AsyncAlgorithms

/// The elements of a collection as an asynchronous sequence, used in pipe
/// `outro`s to split a batch back into single values.
public func iterate<C: Collection & Sendable>(elements: C) -> AsyncSyncSequence<C> where C.Element: Sendable {
    elements.async
}

/// `count` unit values, one after another: the driver of a `.finite(count:)` pipe.
public func iterate(count: Int) -> AsyncSyncSequence<[Void]> {
    Array(repeating: (), count: max(0, count)).async
}
