import NIOCore
import NIOPosix

/// A client that writes bytes as given and reads what comes back: requests
/// a browser would send, and ones no browser would (garbage, a wrong
/// host), at the byte level.
struct RawClient {
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>

    static func connect(port: Int) async throws -> RawClient {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
        }
        return RawClient(channel: channel)
    }

    /// Writes `request`, then reads until the server closes the connection or `enough` holds of what came.
    func exchange(_ request: String, until enough: @escaping ([UInt8]) -> Bool = { _ in false }) async throws -> [UInt8] {
        try await exchange(Array(request.utf8), until: enough)
    }

    /// Writes `bytes` (a request, then WebSocket frames), then reads until the server closes the connection or `enough` holds.
    func exchange(_ bytes: [UInt8], until enough: @escaping ([UInt8]) -> Bool = { _ in false }) async throws -> [UInt8] {
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: bytes))
            var received: [UInt8] = []
            for try await buffer in inbound {
                received += buffer.readableBytesView
                if enough(received) { break }
            }
            return received
        }
    }

    /// A GET of `path` as a browser sends it, with `host` (this server's, unless given).
    static func get(_ path: String, port: Int, host: String? = nil, headers: [String] = []) -> String {
        (["GET \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")"] + headers + ["", ""]).joined(separator: "\r\n")
    }

    /// The headers that ask for a WebSocket.
    static let upgrade = [
        "Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    ]
}

/// What came back over HTTP: the status line and the body.
struct HTTPReply {
    let status: Int
    let headers: String
    let body: String

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
        status = parts.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        headers = parts.first.map(String.init) ?? ""
        body = parts.count > 1 ? String(parts[1]) : ""
    }
}

/// The text frames of a WebSocket's bytes after its handshake (a server's frames are not masked).
enum WebSocketText {
    static func messages(in bytes: [UInt8]) -> [String] {
        frames(in: bytes).filter { $0.opcode == 1 }.map { String(decoding: $0.payload, as: UTF8.self) }
    }

    /// The close frame's code and reason, if one came.
    static func close(in bytes: [UInt8]) -> (code: Int, reason: String)? {
        guard let frame = frames(in: bytes).first(where: { $0.opcode == 8 }), frame.payload.count >= 2 else { return nil }
        return (Int(frame.payload[0]) << 8 | Int(frame.payload[1]), String(decoding: frame.payload.dropFirst(2), as: UTF8.self))
    }

    /// A frame as a browser sends it: masked (here with a fixed key), `fin` unless told; unmasked as no browser sends one.
    static func frame(_ payload: [UInt8], opcode: UInt8 = 1, fin: Bool = true, masked: Bool = true) -> [UInt8] {
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        let mask: UInt8 = masked ? 0x80 : 0
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(mask | UInt8(payload.count))
        } else {
            frame += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        guard masked else { return frame + payload }
        frame += key
        frame += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        return frame
    }

    static func frames(in bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return [] }
        var index = end
        var frames: [(opcode: UInt8, payload: [UInt8])] = []
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            var length = Int(bytes[index + 1] & 0x7F)
            var start = index + 2
            if length == 126 {
                guard start + 2 <= bytes.count else { break }
                length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                start += 2
            } else if length == 127 {
                guard start + 8 <= bytes.count else { break }
                length = bytes[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            guard start + length <= bytes.count else { break }
            frames.append((opcode, Array(bytes[start..<start + length])))
            index = start + length
        }
        return frames
    }
}
