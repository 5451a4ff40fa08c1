extension Emitters {
    /// Emits the values of both emitters, one at a time, in the order they arrive.
    public struct Merge<First: Emitter, Second: Emitter>: Emitter where First.Value == Second.Value {
        let first: First
        let second: Second

        public func subscribe(_ handler: @escaping @Sendable (First.Value) -> Void) -> Subscription {
            let relay = SerialRelay(handler)
            return .combined(
                first.subscribe { relay.push($0) },
                second.subscribe { relay.push($0) }
            )
        }
    }
}

extension Emitter {
    /// Emits the values of this emitter and of `other`.
    public func merge<Other: Emitter>(_ other: Other) -> Emitters.Merge<Self, Other> where Other.Value == Value {
        Emitters.Merge(first: self, second: other)
    }

    /// Merges two emitters of the same value type: `(first + second) += { … }`.
    public static func + <Other: Emitter>(lhs: Self, rhs: Other) -> Emitters.Merge<Self, Other>
    where Other.Value == Value {
        lhs.merge(rhs)
    }
}
