import KarcAsync

/// Where a pipe's track outputs go: nowhere, straight into a drain, or through
/// an `outro` stream into a drain.
struct PipeSink<TO: Sendable, DI: Sendable, DO: Sendable>: Sendable {
    typealias Outro = @Sendable (AsyncThrowingStream<TO, any Error>) -> AsyncThrowingStream<DI, any Error>

    let send: (@Sendable (DI) async throws -> Void)?
    let outro: Outro?

    static var discard: PipeSink { PipeSink(send: nil, outro: nil) }

    init(send: (@Sendable (DI) async throws -> Void)?, outro: Outro?) {
        self.send = send
        self.outro = outro
    }

    init(drain: some Drain<DI, DO>, outro: Outro?) {
        self.init(send: { _ = try await drain.send($0) }, outro: outro)
    }

    /// Runs `body` with an `emit` function for track outputs. With an outro,
    /// the drain is fed from a concurrent task; a drain error ends `body`.
    func run(_ body: @escaping @Sendable (_ emit: @escaping @Sendable (TO) async throws -> Void) async throws -> Void) async throws {
        guard let send else {
            return try await body { _ in }
        }
        guard let outro else {
            return try await body { output in
                guard let input = output as? DI else {
                    throw TypeMismatch(expected: "\(DI.self)", actual: "\(type(of: output))")
                }
                try await send(input)
            }
        }
        let (outputs, continuation) = AsyncThrowingStream<TO, any Error>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await input in outro(outputs) { try await send(input) }
            }
            group.addTask {
                do {
                    try await body { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                    throw error
                }
            }
            // The first error (from either side) cancels the other.
            while try await group.next() != nil {}
        }
    }
}
