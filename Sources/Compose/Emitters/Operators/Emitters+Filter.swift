extension Emitter {
    /// Emits the values for which `isIncluded` is true.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Emitters.Chained<Self, Value> {
        Emitters.Chained(self) { downstream in
            { value in if isIncluded(value) { downstream(value) } }
        }
    }
}

extension Emitter where Value: Equatable {
    /// Emits a signal each time `value` is sent.
    public func only(_ value: Value) -> Emitters.Chained<Self, Void> {
        Emitters.Chained(self) { downstream in
            { sent in if sent == value { downstream(()) } }
        }
    }

    /// Emits every value except `value`.
    public func not(_ value: Value) -> Emitters.Chained<Self, Value> {
        filter { $0 != value }
    }
}
