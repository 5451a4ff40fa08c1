import Foundation
import KarcDemo
import KarcInspector
import KarcSession
import KarcSessionTrellis
import NIOCore
import Testing

/// The inspector lets in the browser that has its URL and no one else, and
/// streams the session's commands to it as they run.
@Suite(.timeLimit(.minutes(1)))
struct InspectorServerTests {
    @Test func thePageNeedsTheTokenAndTheServersOwnHost() async throws {
        let inspector = try await Inspector.start()
        let port = inspector.server.port
        let token = inspector.server.token
        let page = HTTPReply(try await RawClient.connect(port: port).exchange(RawClient.get("/?token=\(token)", port: port)))
        #expect(page.status == 200)
        #expect(page.body.contains("<title>karc inspector</title>"))
        let noToken = HTTPReply(try await RawClient.connect(port: port).exchange(RawClient.get("/", port: port)))
        #expect(noToken.status == 403)
        #expect(noToken.body.contains("open the URL karc printed"))
        let wrongToken = HTTPReply(try await RawClient.connect(port: port).exchange(RawClient.get("/?token=\(String(token.reversed()))", port: port)))
        #expect(wrongToken.status == 403)
        // A page of another site that a DNS name points at 127.0.0.1 names that site as the host.
        let rebound = HTTPReply(
            try await RawClient.connect(port: port).exchange(RawClient.get("/?token=\(token)", port: port, host: "evil.example:\(port)")))
        #expect(rebound.status == 403)
        #expect(rebound.body.contains("answers http://127.0.0.1:\(port)/ only"))
        let script = HTTPReply(try await RawClient.connect(port: port).exchange(RawClient.get("/wire.js", port: port)))
        #expect(script.status == 200)
        #expect(script.body.contains("new WebSocket"))
        #expect(script.headers.contains("Content-Security-Policy: default-src 'none'; script-src 'self'"))
        let missing = HTTPReply(try await RawClient.connect(port: port).exchange(RawClient.get("/../etc/passwd", port: port)))
        #expect(missing.status == 404)
        let post = HTTPReply(
            try await RawClient.connect(port: port).exchange("POST /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 0\r\n\r\n")
        )
        #expect(post.status == 405)
        await inspector.stop()
    }

    @Test func garbageClosesItsConnectionAndTheServerGoesOn() async throws {
        let inspector = try await Inspector.start()
        let port = inspector.server.port
        let garbage = HTTPReply(try await RawClient.connect(port: port).exchange("\u{1}\u{2}NOT HTTP AT ALL\r\n\r\n\u{0}"))
        #expect(garbage.status == 400)
        let long = HTTPReply(try await RawClient.connect(port: port).exchange("GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\n\r\n"))
        #expect(long.status == 400)
        let page = HTTPReply(try await RawClient.connect(port: port).exchange(RawClient.get("/?token=\(inspector.server.token)", port: port)))
        #expect(page.status == 200)
        await inspector.stop()
    }

    @Test func stoppingEndsAConnectionThatNeverAsksAndAPageThatNeverReads() async throws {
        let inspector = try await Inspector.start()
        let (port, token) = (inspector.server.port, inspector.server.token)
        // A client that connects and says nothing (a browser's preconnect, a port scan).
        let silent = try await RawClient.connect(port: port)
        // A page that opened the events, then reads nothing while the session says a lot.
        let stalled = try await RawClient.connect(port: port)
        let request = RawClient.get("/events?token=\(token)", port: port, headers: RawClient.upgrade)
        try await stalled.channel.channel.writeAndFlush(ByteBuffer(string: request))
        await inspector.hub.untilBrowsers { $0 == 1 }
        for _ in 0..<5_000 { inspector.hub.publish(String(repeating: "x", count: 4_096)) }
        // Returns (a hang is this suite's time limit): the silent connection is closed, the stalled page cut after its grace.
        await inspector.stop()
        try? await silent.channel.channel.close()
        try? await stalled.channel.channel.close()
    }

    /// A page that took what little the session said, then neither reads
    /// nor answers the close frame, nor goes (a hung tab, a script that
    /// opened the events and sleeps): the session's end is not held by it.
    @Test func stoppingEndsAPageThatNeverAnswersTheClose() async throws {
        let inspector = try await Inspector.start()
        let (port, token) = (inspector.server.port, inspector.server.token)
        let hung = try await RawClient.connect(port: port)
        let request = RawClient.get("/events?token=\(token)", port: port, headers: RawClient.upgrade)
        try await hung.channel.channel.writeAndFlush(ByteBuffer(string: request))
        await inspector.hub.untilBrowsers { $0 == 1 }
        inspector.hub.publish(#"{"kind":"note","message":"one line"}"#)
        // Returns (a hang is this suite's time limit): the page is cut after its grace.
        await inspector.stop()
        #expect(inspector.hub.browsers == 0)
        try? await hung.channel.channel.close()
    }

    @Test func theEventsAreRefusedWithoutTheTokenOrFromAnotherSitesPage() async throws {
        let inspector = try await Inspector.start()
        let (port, token) = (inspector.server.port, inspector.server.token)
        // A page learns why as the WebSocket closes (policy violation, 1008); nothing of the session is sent.
        let wrong = try await RawClient.connect(port: port).exchange(RawClient.get("/events?token=nope", port: port, headers: RawClient.upgrade))
        #expect(WebSocketText.messages(in: wrong).isEmpty)
        #expect(WebSocketText.close(in: wrong)?.code == 1008)
        #expect(WebSocketText.close(in: wrong)?.reason == "karc inspector: the events need the token of the inspector's URL")
        let elsewhere = try await RawClient.connect(port: port).exchange(
            RawClient.get("/events?token=\(token)", port: port, headers: RawClient.upgrade + ["Origin: http://evil.example"]))
        #expect(WebSocketText.messages(in: elsewhere).isEmpty)
        #expect(WebSocketText.close(in: elsewhere)?.reason == "karc inspector: the events are for pages of this inspector only")
        let rebound = try await RawClient.connect(port: port).exchange(
            RawClient.get("/events?token=\(token)", port: port, host: "evil.example", headers: RawClient.upgrade))
        #expect(WebSocketText.close(in: rebound)?.code == 1008)
        let notWebSocket = HTTPReply(try await RawClient.connect(port: port).exchange(RawClient.get("/events?token=\(token)", port: port)))
        #expect(notWebSocket.status == 400)
        #expect(inspector.hub.browsers == 0)
        await inspector.stop()
    }

    /// A frame no browser sends (unmasked) closes its connection as a
    /// protocol error; a fragmented question is refused once, not a refusal a fragment.
    @Test func anUnmaskedFrameClosesItsConnectionAndAFragmentedQuestionIsRefusedOnce() async throws {
        let inspector = try await Inspector.start()
        let (port, token) = (inspector.server.port, inspector.server.token)
        let open = Array(RawClient.get("/events?token=\(token)", port: port, headers: RawClient.upgrade).utf8)
        let unmasked = try await RawClient.connect(port: port).exchange(
            open + WebSocketText.frame(Array(#"{"id":1,"ask":"overview"}"#.utf8), masked: false))
        #expect(WebSocketText.close(in: unmasked)?.code == 1002)
        #expect(WebSocketText.close(in: unmasked)?.reason == "a client's frames are masked (RFC 6455, 5.1)")
        #expect(!WebSocketText.messages(in: unmasked).contains { $0.hasPrefix(#"{"answer":"#) })
        // Then a question that is no JSON: its refusal comes after whatever the fragments were told, in order.
        let fragments =
            WebSocketText.frame(Array(#"{"id":1,"#.utf8), fin: false) + WebSocketText.frame(Array(#""ask":"#.utf8), opcode: 0, fin: false)
            + WebSocketText.frame(Array(#""overview"}"#.utf8), opcode: 0) + WebSocketText.frame(Array("not json".utf8))
        let fragmented = try await RawClient.connect(port: port).exchange(open + fragments) { bytes in
            WebSocketText.messages(in: bytes).contains { $0.contains("a question is one JSON object") }
        }
        let refusals = WebSocketText.messages(in: fragmented).filter { $0.contains("a question is one JSON text frame, unfragmented") }
        #expect(refusals.count == 1, "\(WebSocketText.messages(in: fragmented))")
        await inspector.stop()
    }

    @Test func aBrowserSeesEachCommandFromItsLineToItsOutcome() async throws {
        let inspector = try await Inspector.start()
        let (port, token) = (inspector.server.port, inspector.server.token)
        let cluster = ClusterShell(name: "demo", cluster: try await DemoCluster.makeForTesting(tick: .seconds(3_600)))
        var options = ShellOptions()
        options.printing.color = false
        let session = ShellSession(cluster: cluster, options: options, sink: OutputSink(capturing: ()))
        _ = session.subscribe(inspector.front())
        _ = await ScriptRunner(session: session).run(lines: ["counter.increment"], name: nil)
        // A browser that opens the page later is sent what happened before it came, then what comes.
        let client = try await RawClient.connect(port: port)
        let watching = Task {
            try await client.exchange(RawClient.get("/events?token=\(token)", port: port, headers: RawClient.upgrade)) { bytes in
                WebSocketText.messages(in: bytes).contains { $0.hasPrefix(#"{"kind":"done""#) && $0.hasSuffix(#""outcome":"error","seq":2}"#) }
            }
        }
        await inspector.hub.untilBrowsers { $0 == 1 }
        _ = await ScriptRunner(session: session).run(lines: ["counter.nosuch"], name: nil)
        let messages = WebSocketText.messages(in: try await watching.value)
        #expect(messages.first == #"{"kind":"hello","version":1}"#)
        #expect(messages.contains(#"{"kind":"begin","seq":1,"text":"counter.increment"}"#))
        #expect(messages.contains { $0.contains(#""kind":"state""#) && $0.contains(#""target":"counter""#) && $0.contains(#""seq":1"#) })
        #expect(messages.contains { $0.hasPrefix(#"{"kind":"done","milliseconds":"#) && $0.hasSuffix(#","outcome":"ok","seq":1}"#) })
        #expect(messages.contains(#"{"kind":"begin","seq":2,"text":"counter.nosuch"}"#))
        #expect(messages.contains { $0.contains(#""kind":"error""#) && $0.contains("unknown command 'nosuch'") })
        await cluster.shutDown()
        await inspector.stop()
    }
}

/// `:inspect` at a prompt starts the inspector once and says where it is;
/// a session that cannot serve one says so.
@Suite(.timeLimit(.minutes(1)))
struct InspectMetaCommandTests {
    @Test func inspectStartsTheInspectorOnceAndItsPageWatchesTheSession() async throws {
        let cluster = ClusterShell(name: "demo", cluster: try await DemoCluster.makeForTesting(tick: .seconds(3_600)))
        var options = ShellOptions()
        options.printing.color = false
        let starter = InspectorStarter()
        var runtime = ShellRuntime()
        runtime.inspector = starter
        let sink = OutputSink(capturing: ())
        let session = ShellSession(cluster: cluster, options: options, sink: sink, runtime: runtime)
        _ = await ScriptRunner(session: session).run(lines: [":inspect", ":inspect"], name: nil)
        let url = try #require(starter.url)
        let printed = String(decoding: sink.takeCaptured(), as: UTF8.self)
        #expect(printed == "inspector: \(url)\ninspector: \(url)\n", "started once, said twice")
        await starter.stop()
        await cluster.shutDown()
    }

    @Test func aSessionThatCannotServeOneSaysSo() async throws {
        let cluster = ClusterShell(name: "demo", cluster: try await DemoCluster.makeForTesting(tick: .seconds(3_600)))
        var options = ShellOptions()
        options.printing.color = false
        let sink = OutputSink(capturing: ())
        let session = ShellSession(cluster: cluster, options: options, sink: sink)
        #expect(await ScriptRunner(session: session).run(lines: [":inspect"], name: "s.karc") == .failed)
        #expect(String(decoding: sink.takeCaptured(), as: UTF8.self).contains("s.karc:1:2: error: this shell cannot serve an inspector"))
        await cluster.shutDown()
    }
}

/// A page asks the session over its WebSocket and gets the answer, alone;
/// what is not a question is answered with what was wrong.
@Suite(.timeLimit(.minutes(1)))
struct InspectorQuestionsOverTheWireTests {
    @Test func aPageAsksTheSessionWhileItWaitsForItsScriptAndWrongQuestionsAreToldWhy() async throws {
        let cluster = ClusterShell(name: "demo", cluster: try await DemoCluster.makeForTesting(tick: .seconds(3_600)))
        var options = ShellOptions()
        options.printing.color = false
        let starter = InspectorStarter()
        let started = try await starter.start()
        let port = try #require(started.url.firstMatch(of: /:(\d+)\//).flatMap { Int($0.1) })
        let token = try #require(started.url.split(separator: "token=").last.map(String.init))
        var runtime = ShellRuntime()
        runtime.inspector = starter
        let script = LineQueue()
        script.append(["counter.increment"])
        let front = try #require(started.front)
        let session = Task {
            await Shell.runSession(
                cluster, options: options, commands: [], input: .lines(script, name: "<stdin>"), sink: OutputSink(capturing: ()), host: LocalHost(),
                runtime: runtime, fronts: [front])
        }
        // The script waits for its next line: the session answers the page meanwhile.
        let questions =
            WebSocketText.frame(Array(#"{"id":1,"ask":"state","target":"counter","path":"count"}"#.utf8))
            + WebSocketText.frame(Array("not json".utf8))
            + WebSocketText.frame([1, 2, 3], opcode: 2)
            + WebSocketText.frame(Array(#"{"id":2,"ask":"fly"}"#.utf8))
            + WebSocketText.frame(Array(#"{"id":3,"ask":"state"}"#.utf8))
        let bytes = try await RawClient.connect(port: port).exchange(
            Array(RawClient.get("/events?token=\(token)", port: port, headers: RawClient.upgrade).utf8) + questions
        ) { bytes in
            WebSocketText.messages(in: bytes).filter { $0.hasPrefix(#"{"answer":"#) }.count == 5
        }
        let answers = WebSocketText.messages(in: bytes).filter { $0.hasPrefix(#"{"answer":"#) }
        #expect(
            answers.contains {
                $0.hasPrefix(#"{"answer":{"children":[],"offset":0,"part":{"count":0,"kind":"value","text":"1","type":"Int"}"#)
                    && $0.hasSuffix(#","id":1,"kind":"answer"}"#)
            })
        #expect(
            answers.contains {
                $0.hasPrefix(#"{"answer":{"error":"a question is one JSON object, like {\"id\":1,\"ask\":\"overview\"}: "#)
                    && $0.hasSuffix(#""id":null,"kind":"answer"}"#)
            })
        #expect(answers.contains(#"{"answer":{"error":"a question is one JSON text frame, unfragmented"},"id":null,"kind":"answer"}"#))
        #expect(
            answers.contains(
                #"{"answer":{"error":"unknown \"ask\" 'fly': one of run, complete, overview, state, search, trace, diagram, back"},"id":2,"kind":"answer"}"#
            ))
        #expect(answers.contains(#"{"answer":{"error":"\"state\" needs a \"target\""},"id":3,"kind":"answer"}"#))
        script.finish()
        #expect(await session.value == 0)
        await starter.stop()
        await cluster.shutDown()
    }
}
