/// An action scheduled on the shared ``SimpleFlow`` dispatcher.
public protocol SimpleFlowAction: DispatchingAction where Dispatcher == SimpleFlow {}

extension SimpleFlowAction {
    /// ``SimpleFlow/shared``.
    public var defaultDispatcher: SimpleFlow { .shared }
}
