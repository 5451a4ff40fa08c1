import KarcInspector
import Testing

/// Browsers get the recent history, then every message; one that falls
/// behind is told how many it missed, and the session never waits for it.
@Suite(.timeLimit(.minutes(1)))
struct InspectorHubTests {
    /// The next `count` messages of `stream`.
    func take(_ count: Int, from stream: AsyncStream<String>) async -> [String] {
        var iterator = stream.makeAsyncIterator()
        var taken: [String] = []
        while taken.count < count, let message = await iterator.next() { taken.append(message) }
        return taken
    }

    @Test func aBrowserThatComesLateIsSentTheRecentHistoryFirst() async {
        let hub = InspectorHub(historyLimit: 3)
        for n in 1...5 { hub.publish("m\(n)") }
        guard let (_, messages) = hub.connect(greeting: "hello") else {
            Issue.record("refused")
            return
        }
        hub.publish("m6")
        #expect(await take(5, from: messages) == ["hello", "m3", "m4", "m5", "m6"])
    }

    @Test func aBrowserThatFallsBehindIsToldHowManyItMissed() async {
        let hub = InspectorHub(historyLimit: 1, bufferLimit: 4)
        guard let (_, messages) = hub.connect(greeting: "hello") else {
            Issue.record("refused")
            return
        }
        // Nobody reads: past the four the buffer holds, each is counted, not kept (and the publisher never waits).
        for n in 1...10 { hub.publish("m\(n)") }
        var iterator = messages.makeAsyncIterator()
        var read: [String] = []
        for _ in 0..<4 { read.append(await iterator.next() ?? "") }
        #expect(read == ["hello", "m1", "m2", "m3"])
        hub.publish("m11")
        #expect(await iterator.next() == #"{"kind":"skipped","count":7}"#)
        #expect(await iterator.next() == "m11")
    }

    @Test func thereIsRoomForSoManyBrowsersAndOneThatLeavesMakesRoom() async {
        let hub = InspectorHub(browserLimit: 2)
        // Each kept: a browser's messages dropped is a browser gone.
        let first = hub.connect(greeting: "hello")
        let second = hub.connect(greeting: "hello")
        #expect(first != nil && second != nil)
        #expect(hub.connect(greeting: "hello") == nil, "a third browser is refused")
        if let first { hub.disconnect(first.id) }
        await hub.untilBrowsers { $0 == 1 }
        let third = hub.connect(greeting: "hello")
        #expect(third != nil)
        #expect(hub.browsers == 2)
        _ = (second, third)
    }

    @Test func theSessionsEndEndsEveryBrowsersMessagesAfterWhatTheyHaveNotRead() async {
        let hub = InspectorHub()
        guard let (_, messages) = hub.connect(greeting: "hello") else {
            Issue.record("refused")
            return
        }
        hub.publish("last")
        hub.finish()
        var all: [String] = []
        for await message in messages { all.append(message) }
        #expect(all == ["hello", "last"])
        #expect(hub.connect(greeting: "hello") == nil)
    }
}
