import Synchronization

/// The floor a cross-task request/response can reach: a Mutex mailbox and two
/// continuations, no gates, no models. Karc's send cost reads as a ratio to it.
final class Mailbox: Sendable {
    private struct State {
        var request: (value: Int, reply: UnsafeContinuation<Int, Never>)?
        var server: UnsafeContinuation<(Int, UnsafeContinuation<Int, Never>), Never>?
    }

    private let state = Mutex(State())

    func call(_ value: Int) async -> Int {
        await withUnsafeContinuation { reply in
            state.withLock { s in
                if let server = s.server.take() {
                    server.resume(returning: (value, reply))
                } else {
                    s.request = (value, reply)
                }
            }
        }
    }

    func next() async -> (Int, UnsafeContinuation<Int, Never>) {
        await withUnsafeContinuation { server in
            state.withLock { s in
                if let request = s.request.take() {
                    server.resume(returning: request)
                } else {
                    s.server = server
                }
            }
        }
    }
}
