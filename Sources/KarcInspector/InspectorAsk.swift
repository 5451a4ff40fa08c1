import Foundation
import KarcFronts

/// A page's question, as its WebSocket sends it: one JSON object a frame,
/// `{"id": 7, "ask": "state", "target": "articles", "path": "items[0]"}`,
/// decoded into the session's ``SessionQuestion``. What is not one is
/// answered with what was wrong and what is accepted, never dropped silently.
///
/// | `ask` | fields |
/// |---|---|
/// | `run` | `line` |
/// | `complete` | `line` |
/// | `overview` | |
/// | `state` | `target`, `path` (optional), `after` (optional), `offset`, `limit` (optional) |
/// | `search` | `target`, `text`, `after` (optional) |
/// | `trace`, `diagram`, `back` | `seq` |
package enum InspectorAsk {
    /// The asks a page may make.
    package static let asks = ["run", "complete", "overview", "state", "search", "trace", "diagram", "back"]
    /// A frame longer than this is refused unread.
    package static let byteLimit = 16 << 10

    private struct Wire: Decodable {
        let id: Int?
        let ask: String?
        let line: String?
        let target: String?
        let path: String?
        let after: Int?
        let offset: Int?
        let limit: Int?
        let text: String?
        let seq: Int?
    }

    /// What is wrong with a frame: its id when it had one, and the message.
    package struct Problem: Error, Equatable {
        package let id: Int?
        package let message: String
    }

    /// The question in `frame`, with the id its answer carries.
    package static func decode(_ frame: some Collection<UInt8>) -> Result<(id: Int, question: SessionQuestion), Problem> {
        guard frame.count <= byteLimit else {
            return .failure(Problem(id: nil, message: "a question is at most \(byteLimit) bytes; this one has \(frame.count)"))
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(frame))
        } catch {
            return .failure(Problem(id: nil, message: "a question is one JSON object, like {\"id\":1,\"ask\":\"overview\"}: \(reason(error))"))
        }
        guard let id = wire.id else { return .failure(Problem(id: nil, message: "a question needs an \"id\" (a number its answer carries)")) }
        func problem(_ message: String) -> Result<(id: Int, question: SessionQuestion), Problem> { .failure(Problem(id: id, message: message)) }
        let question: SessionQuestion
        switch wire.ask {
        case "run"?:
            guard let line = wire.line else { return problem("\"run\" needs a \"line\" to run") }
            question = .run(line)
        case "complete"?:
            guard let line = wire.line else { return problem("\"complete\" needs the \"line\" typed so far") }
            question = .complete(line)
        case "overview"?:
            question = .overview
        case "state"?:
            guard let target = wire.target else { return problem("\"state\" needs a \"target\"") }
            guard (wire.offset ?? 0) >= 0, (wire.limit ?? 0) >= 0 else { return problem("\"offset\" and \"limit\" are 0 or more") }
            question = .state(target: target, path: wire.path ?? "", after: wire.after, offset: wire.offset ?? 0, limit: wire.limit ?? 200)
        case "search"?:
            guard let target = wire.target, let text = wire.text else { return problem("\"search\" needs a \"target\" and the \"text\" to find") }
            question = .search(target: target, text: text, after: wire.after)
        case "trace"?, "diagram"?, "back"?:
            guard let seq = wire.seq, seq >= 0 else { return problem("\"\(wire.ask ?? "")\" needs a command's number, \"seq\" (0 or more)") }
            question = wire.ask == "trace" ? .trace(seq) : wire.ask == "diagram" ? .diagram(seq) : .back(to: seq)
        case let other:
            let given = other.map { "'\($0)'" } ?? "none"
            return problem("unknown \"ask\" \(given): one of \(asks.joined(separator: ", "))")
        }
        return .success((id, question))
    }

    /// The message that carries an answer to the page that asked.
    package static func answer(_ json: String, id: Int?) -> String {
        #"{"answer":\#(json),"id":\#(id.map(String.init) ?? "null"),"kind":"answer"}"#
    }

    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
            return path.isEmpty ? detail : "\"\(path)\": \(detail)"
        @unknown default:
            return "\(error)"
        }
    }
}
