import KarcAsync
import KarcSynchronization
import Synchronization
import Trellis

/// An actor model in the style of the Trellis README.
actor CounterModel: StatefulModel {
    var count = 0
    var log: [String] = []
    var state: Int { count }

    func add(_ n: Int) { count += n }
    func note(_ entry: String) { log.append(entry) }
}

enum CounterAction: Action, Equatable {
    case add(Int)
    case fail
    case recover
}

struct Boom: Error, Equatable, CustomStringConvertible {
    var description: String { "boom" }
}

/// Adds each `.add(n)` to the counter model given with `.with(model:)`.
struct AddingService: Service {
    var body: some Service {
        Store(model: CounterModel.self)
            .mutate(on: CounterAction.self) { model, action, _ in
                if case .add(let n) = action { model.add(n) }
            }
    }
}

/// A value model: the store must keep its changes.
struct Tally: Equatable, Sendable {
    var total = 0
}

/// Records values from any task.
final class Recorder<Value: Sendable>: Sendable {
    private let values = KarcMutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}
