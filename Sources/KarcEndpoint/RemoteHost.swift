import Foundation
import KarcAsync
import KarcAttachProtocol
import KarcSession
import KarcSynchronization

/// The files and terminal of the machine an attached shell runs on:
/// `:source`, `:save`, `:export-test`, `--record` and the pager ask the
/// shell, which answers each request by its id.
final class RemoteHost: ShellHost {
    private struct State {
        var nextID: UInt64 = 1
        var pending: [UInt64: CheckedContinuation<Karc_Attach_V1_FileReply, Never>] = [:]
        var isClosed = false
    }

    private let outbox: Outbox
    private let state = KarcMutex(State())

    init(outbox: Outbox) {
        self.outbox = outbox
    }

    func openScript(_ path: String) async throws(HostError) -> any LineSource {
        let reply = await request(.read, path: path)
        guard reply.error.isEmpty else { throw HostError(reply.error) }
        return RemoteLines(text: String(decoding: reply.content, as: UTF8.self))
    }

    func write(_ text: String, to path: String) async throws(HostError) {
        let reply = await request(.write, path: path, content: Array(text.utf8))
        guard reply.error.isEmpty else { throw HostError(reply.error) }
    }

    func recorder(appendingTo path: String) async throws(HostError) -> @Sendable (String) -> Void {
        let reply = await request(.record, path: path)
        guard reply.error.isEmpty else { throw HostError(reply.error) }
        return { [outbox] text in
            outbox.send(
                .with {
                    $0.fileRequest = .with {
                        $0.action = .append
                        $0.path = path
                        $0.content = Data(text.utf8)
                    }
                })
        }
    }

    func page(_ bytes: [UInt8]) async {
        _ = await request(.page, path: "", content: bytes)
    }

    /// The shell's answer to a request.
    func answer(_ reply: Karc_Attach_V1_FileReply) {
        state.withLock { $0.pending.removeValue(forKey: reply.id) }?.resume(returning: reply)
    }

    /// The connection is gone: every request still waiting fails, and later ones at once.
    func close() {
        let waiting = state.withLock { s -> [CheckedContinuation<Karc_Attach_V1_FileReply, Never>] in
            s.isClosed = true
            defer { s.pending = [:] }
            return Array(s.pending.values)
        }
        for continuation in waiting { continuation.resume(returning: Self.connectionLost) }
    }

    private static let connectionLost = Karc_Attach_V1_FileReply.with { $0.error = "the attached shell is gone" }

    private func request(_ action: Karc_Attach_V1_FileAction, path: String, content: [UInt8] = []) async -> Karc_Attach_V1_FileReply {
        await withCheckedContinuation { continuation in
            let id = state.withLock { s -> UInt64? in
                guard !s.isClosed else { return nil }
                defer { s.nextID += 1 }
                s.pending[s.nextID] = continuation
                return s.nextID
            }
            guard let id else { return continuation.resume(returning: Self.connectionLost) }
            outbox.send(
                .with {
                    $0.fileRequest = .with {
                        $0.id = id
                        $0.action = action
                        $0.path = path
                        $0.content = Data(content)
                    }
                }, bytes: content.count)
        }
    }
}
