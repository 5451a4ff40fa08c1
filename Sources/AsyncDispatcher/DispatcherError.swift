/// Why a dispatch could not run.
public enum DispatcherError: Error, Equatable, CustomStringConvertible {
    /// An action awaited `dispatch` on the dispatcher that is running it: it
    /// would wait for itself forever.
    case reentrantDispatch(dispatcher: String, action: String)

    public var description: String {
        switch self {
        case .reentrantDispatch(let dispatcher, let action):
            return "\(action) was dispatched to \(dispatcher) from an action it is running, and would wait for itself: "
                + "call execute(_:) to run it now, or enqueue(_:) to run it after the current action"
        }
    }
}
