import Compose
import Synchronization

/// `send` on a `ValueEmitter<Int>` with one synchronous observer that adds the value to an atomic.
func emitterSend(_ n: Int) async throws -> Double {
    try await rate(operations: n) {
        let emitter = ValueEmitter<Int>()
        let sum = Sum()
        emitter += { sum.add($0) }
        for value in 0..<n { emitter.send(value) }
        precondition(sum.total == n * (n - 1) / 2)
    }
}

/// The same through a three-operator chain (`filter`, `map`, `undup`).
func emitterChain(_ n: Int) async throws -> Double {
    try await rate(operations: n) {
        let emitter = ValueEmitter<Int>()
        let sum = Sum()
        emitter.filter { $0 >= 0 }.map { $0 + 1 }.undup() += { sum.add($0) }
        for value in 0..<n { emitter.send(value) }
        precondition(sum.total == n * (n + 1) / 2)
    }
}

final class Sum: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ amount: Int) { value.add(amount, ordering: .relaxed) }
    var total: Int { value.load(ordering: .relaxed) }
}
