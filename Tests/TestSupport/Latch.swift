/// Holds whoever waits until it is opened: a test decides when work that
/// waits on it may go on, instead of sleeping.
public actor Latch {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init() {}

    /// Returns once the latch is open (at once when it is).
    public func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// How many wait now.
    public var waiterCount: Int { waiting.count }

    /// Opens the latch: every waiter goes on, and later ones do not wait.
    public func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
