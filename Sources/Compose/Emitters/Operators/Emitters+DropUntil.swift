import KarcSynchronization

extension Emitters {
    /// Drops values until `control` emits anything; emits every value after that.
    public struct DropUntil<Upstream: Emitter, Control: Emitter>: Emitter {
        let upstream: Upstream
        let control: Control

        public func subscribe(_ handler: @escaping @Sendable (Upstream.Value) -> Void) -> Subscription {
            let isOpen = Locked(false)
            let opener = control.once().subscribe { _ in isOpen.withLock { $0 = true } }
            let values = upstream.subscribe { value in
                if isOpen.withLock({ $0 }) { handler(value) }
            }
            return .combined(values, opener)
        }
    }
}

extension Emitter {
    /// Drops values until `emitter` emits (counted per observation, from the moment it starts).
    public func dropUntil<Control: Emitter>(emitter: Control) -> Emitters.DropUntil<Self, Control> {
        Emitters.DropUntil(upstream: self, control: emitter)
    }
}
