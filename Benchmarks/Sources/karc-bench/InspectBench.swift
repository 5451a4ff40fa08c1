import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A page of the inspector as a browser holds it: a WebSocket to the
/// events, read as they come (`following`) or never read (a stalled tab),
/// its questions sent as a browser sends them (masked text frames).
final class BenchPage: Sendable {
    private struct Page {
        var messages = 0
        var pending: [UInt8] = []
        var handshakeDone = false
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        var answered: Set<Int> = []
        var lastID = 0
    }

    /// Shared with the reading task, which starts before this object is whole.
    private final class Shared: Sendable {
        let page = Mutex(Page())
    }

    private let shared: Shared
    private let frames: AsyncStream<[UInt8]>.Continuation
    private let task: Task<Void, any Error>

    /// Opens the events of the inspector at `url` (its port and token); `following`: what comes is read.
    init(url: String, following: Bool = true) async throws {
        let port = Int(url.split(separator: ":")[2].prefix { $0.isNumber }) ?? 0
        let token = String(url.split(separator: "token=").last ?? "")
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
        }
        let shared = Shared()
        let (outgoing, frames) = AsyncStream.makeStream(of: [UInt8].self)
        let request = [
            "GET /events?token=\(token) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: Upgrade", "Upgrade: websocket",
            "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "", "",
        ].joined(separator: "\r\n")
        self.shared = shared
        self.frames = frames
        task = Task {
            try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: request))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { for await frame in outgoing { try await outbound.write(ByteBuffer(bytes: frame)) } }
                    group.addTask {
                        guard following else {
                            // A tab that stopped reading: the bytes stay in the socket, then in the server.
                            while !Task.isCancelled { try await Task.sleep(for: .seconds(3_600)) }
                            return
                        }
                        for try await buffer in inbound {
                            let ready = shared.page.withLock { page in Self.take(Array(buffer.readableBytesView), into: &page) }
                            for waiter in ready { waiter.resume() }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
    }

    /// How many messages came so far.
    var messages: Int { shared.page.withLock { $0.messages } }

    /// Asks `question` (a JSON object's fields, without its id) and returns once its answer came.
    func ask(_ question: String) async {
        let id = shared.page.withLock { page in
            page.lastID += 1
            return page.lastID
        }
        await withCheckedContinuation { continuation in
            let done = shared.page.withLock { page -> Bool in
                if page.answered.remove(id) != nil { return true }
                page.waiting[id] = continuation
                return false
            }
            if done { continuation.resume() }
            frames.yield(Self.masked(Array(#"{"id":\#(id),\#(question)}"#.utf8)))
        }
    }

    func close() async {
        frames.finish()
        task.cancel()
        _ = try? await task.value
    }

    /// Parses what came: the handshake's head once, then whole frames (a server's are not masked); the answers' waiters.
    private static func take(_ bytes: [UInt8], into page: inout Page) -> [CheckedContinuation<Void, Never>] {
        page.pending += bytes
        if !page.handshakeDone {
            guard let end = page.pending.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return [] }
            page.pending.removeFirst(end)
            page.handshakeDone = true
        }
        var ready: [CheckedContinuation<Void, Never>] = []
        var index = 0
        let answer = Array(#"{"answer":"#.utf8)
        while index + 2 <= page.pending.count {
            var length = Int(page.pending[index + 1] & 0x7F)
            var start = index + 2
            if length == 126 {
                guard start + 2 <= page.pending.count else { break }
                length = Int(page.pending[start]) << 8 | Int(page.pending[start + 1])
                start += 2
            } else if length == 127 {
                guard start + 8 <= page.pending.count else { break }
                length = page.pending[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            guard start + length <= page.pending.count else { break }
            page.messages += 1
            let payload = page.pending[start..<start + length]
            if payload.starts(with: answer), let id = Self.answerID(payload) {
                if let waiter = page.waiting.removeValue(forKey: id) { ready.append(waiter) } else { page.answered.insert(id) }
            }
            index = start + length
        }
        page.pending.removeFirst(index)
        return ready
    }

    /// The id of `…,"id":N,"kind":"answer"}`.
    private static func answerID(_ payload: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: payload.suffix(40), as: UTF8.self)
        guard let range = text.range(of: #""id":"#, options: .backwards) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    private static func masked(_ payload: [UInt8]) -> [UInt8] {
        let key: [UInt8] = [0x11, 0x22, 0x33, 0x44]
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        frame += key
        frame += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        return frame
    }
}
