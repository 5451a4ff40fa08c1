import KarcAsync

extension ObservationHub {
    /// Returns once the subscriber `id` waits for its next batch (at once if
    /// it does now). A test hook (``StateWatchers``): a test awaits the
    /// observer's wait instead of polling ``isWaiting(_:)``.
    func untilWaiting(_ id: UInt64) async {
        await StateWatchers.until({ $0.subscriber(id)?.waiter != nil }, in: state, at: \.watchers)
    }

    /// Returns once the hub holds no record an observer has yet to take (at
    /// once if it holds none now): a test awaits its observers' catching up
    /// instead of polling ``heldRecords``.
    package func untilNothingHeld() async {
        await StateWatchers.until({ $0.log.isEmpty }, in: state, at: \.watchers)
    }
}
