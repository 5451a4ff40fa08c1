extension Emitter {
    /// Emits `transform(value)` for every value.
    public func map<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Output
    ) -> Emitters.Chained<Self, Output> {
        Emitters.Chained(self) { downstream in { downstream(transform($0)) } }
    }

    /// Emits the property at `keyPath` of every value.
    public func tap<Property: Sendable>(
        _ keyPath: KeyPath<Value, Property> & Sendable
    ) -> Emitters.Chained<Self, Property> {
        Emitters.Chained(self) { downstream in { downstream($0[keyPath: keyPath]) } }
    }

    /// Emits a signal for every value, dropping the value.
    public func ignoreOutput() -> Emitters.Chained<Self, Void> {
        Emitters.Chained(self) { downstream in { _ in downstream(()) } }
    }

    /// Emits only the non-nil values, unwrapped.
    public func nonNull<Wrapped: Sendable>() -> Emitters.Chained<Self, Wrapped> where Value == Wrapped? {
        Emitters.Chained(self) { downstream in
            { value in if let value { downstream(value) } }
        }
    }
}

/// A `Result`, seen generically (lets `mapErrorToNil` be a property, as in the seed).
public protocol ResultRepresentable {
    /// The success type.
    associatedtype Success
    /// The failure type.
    associatedtype Failure: Error
    /// The value as a `Result`.
    var result: Result<Success, Failure> { get }
}

extension Result: ResultRepresentable {
    /// The result itself.
    public var result: Result<Success, Failure> { self }
}

extension Emitter where Value: ResultRepresentable, Value.Success: Sendable {
    /// Emits the success value of every `Result`, and `nil` for every failure.
    public var mapErrorToNil: Emitters.Chained<Self, Value.Success?> {
        Emitters.Chained(self) { downstream in
            { value in downstream(try? value.result.get()) }
        }
    }
}
