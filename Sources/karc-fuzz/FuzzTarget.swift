import Foundation
import KarcAttachProtocol
import KarcEndpoint
import KarcInspector
import KarcLanguage
import KarcRendering
import KarcScriptTools
import KarcSession
import SwiftProtobuf

/// What each fuzz target feeds its input to. Every input must come back:
/// an error is an answer, a trap or a hang is a bug.
enum FuzzTarget: String, CaseIterable {
    /// Script text: read into commands (continuations, bounds), each parsed
    /// and built against ``FuzzCatalog`` (meta commands' paths and durations too).
    case line
    /// A JSON object as a command's fields (`all.everything {…}`), decoded by the field decoder.
    case json
    /// A transcript as `karc check` reads it (`#=` expectations, masks).
    case transcript
    /// A message an attached shell sends, as the endpoint decodes it: the
    /// protobuf, a `Hello`'s options, a batch of lines against the line
    /// credit and through the command reader.
    case attach
    /// A question the inspector's page sends over its WebSocket, as the
    /// server decodes it; a state question's path read and its part listed
    /// on a state with every kind of part, as the session answers it.
    case inspector

    static let builder = CommandBuilder(catalog: FuzzCatalog.catalog)

    /// Inputs that reach every field type, meta command, error and message kind once.
    static var warmUps: [[UInt8]] {
        let messages: [Karc_Attach_V1_ShellMessage] = [
            .with { $0.lines.lines = ["all.empty", ":help ."] },
            .with { $0.hello.options.diff = "sideways" },
        ]
        return warmUpTexts.map { Array($0.utf8) } + messages.map { (try? $0.serializedBytes()) ?? [] } + inspectorQuestions.map { Array($0.utf8) }
    }

    private static let inspectorQuestions = [
        #"{"id":1,"ask":"state","target":"all","path":"items[0].tags[\"env\"]","offset":0,"limit":5}"#,
        #"{"id":2,"ask":"search","target":"all","text":"quote"}"#, #"{"id":3,"ask":"nope"}"#, "[1,2", #"{"id":4,"ask":"run","line":"all.empty"}"#,
    ]

    private static let warmUpTexts = [
        """
        all.everything small=1 unsigned=2 big=3 ratio=0.5 weight=1 flag=true name=x at=2026-01-01T00:00:00Z id=00000000-0000-0000-0000-000000000000 site=https://a.b total=1.5 priority=high status=open tags=[a] labels={"a":1} address.city=c matrix=[[1]]
        all.everything small=999 nope=1 "open
        wish.want thing=x count=1
        wish.forget _0=x always=true
        wish.nothing
        all.empty
        :state all items[0].x["k"]
        :sleep 1s
        :help all.everything
        bogus.command x=[1,{"a":null}]
        """,
        #"{"small":1,"unsigned":2,"ratio":0,"flag":true,"name":"n","tags":["a"],"labels":{"a":1},"address":{"city":"c"},"matrix":[[1]]}"#,
        "counter.increment\n#= reply 1\n#~ /x/\n",
    ]

    func run(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch self {
        case .line:
            var reader = CommandReader()
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) { reader.append(String(line)) }
            while let read = reader.next(atEnd: true) {
                switch read {
                case .command(let command): Self.parse(command.text)
                case .unterminated(let open): _ = open.message
                }
            }
        case .json:
            Self.parse("all.everything " + text)
            Self.parse("wish.want " + text)
        case .transcript:
            _ = try? Transcript(text: text)
        case .attach:
            Self.attach(bytes)
        case .inspector:
            Self.inspector(bytes)
        }
    }

    /// What the endpoint does with a shell's message before its session runs it.
    private static func attach(_ bytes: UnsafeRawBufferPointer) {
        guard let message = try? Karc_Attach_V1_ShellMessage(serializedBytes: Array(bytes)) else { return }
        switch message.kind {
        case .hello(let hello):
            _ = try? ShellOptions(attaching: hello.options)
        case .lines(let batch):
            var credit = LineCredit(window: 1 << 22)
            let cost = LineCredit.cost(of: batch.lines)
            guard credit.allows(cost: cost, count: batch.lines.count) else { return }
            credit.spend(cost)
            var reader = CommandReader()
            for line in batch.lines {
                credit.returned(LineCredit.cost(of: line))
                reader.append(line)
                while let read = reader.next(atEnd: false) {
                    if case .command(let command) = read { parse(command.text) }
                }
            }
        case .fileReply(let reply):
            _ = String(decoding: reply.content, as: UTF8.self).split(separator: "\n").count
        case .completionRequest(let request):
            // What the endpoint answers it with, on a state with every kind of part.
            _ = StatePath.completions(in: SampleState(), typed: String(decoding: request.path.utf8.prefix(1_024), as: UTF8.self))
        case .interrupt, .endOfInput, nil:
            break
        }
    }

    /// What the inspector does with a page's question before the session answers it, and the parts of a state it then reads.
    private static func inspector(_ bytes: UnsafeRawBufferPointer) {
        guard case .success(let (_, question)) = InspectorAsk.decode(bytes) else { return }
        switch question {
        case .state(_, let path, _, let offset, let limit):
            guard case .success(let steps) = StatePath.parse(path), let part = StatePath.part(of: SampleState(), at: steps) else { return }
            _ = StateTree.part(part)
            for child in StateTree.children(of: part, offset: offset, limit: min(limit, 1_000)) { _ = StateTree.part(child.value) }
        case .search(_, let text, _):
            _ = StateTree.search(SampleState(), for: String(text.prefix(200)))
        case .run(let line), .complete(let line):
            parse(line)
        case .overview, .trace, .diagram, .back:
            break
        }
    }

    private static func parse(_ text: String) {
        guard let line = try? LineParser.parse(text) else { return }
        switch line {
        case .empty: break
        case .command(let invocation): _ = try? builder.build(invocation)
        case .meta(_, let arguments):
            for argument in arguments {
                _ = StatePath.parse(argument.value)
                _ = ShellDuration.parse(argument.value)
            }
        }
    }
}

/// A state with fields, a list, a dictionary and an optional, for state-path completion.
private struct SampleState {
    struct Item {
        var title = "a"
        var tags = ["env": 1]
    }
    var items = [Item(), Item()]
    var labels = ["x": "y", "quote\"d": "z"]
    var user: Item? = Item()
    var count = 0
}
