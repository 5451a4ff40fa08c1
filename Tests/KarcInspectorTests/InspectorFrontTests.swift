import KarcInspector
import KarcOutput
import KarcSynchronization
import Testing

/// The front makes a message of each event while the session is slow
/// enough to watch; past its budget (a piped script), it skips them and
/// says how many, so watching does not slow the session down.
@Suite(.timeLimit(.minutes(1)))
struct InspectorFrontTests {
    @Test func pastItsBudgetTheFrontSkipsAndSaysHowManyWhenItGoesOn() async throws {
        let hub = InspectorHub()
        let time = Locked(Duration.zero)
        let front = InspectorFront(hub: hub, capacity: 2, perSecond: 1, now: { time.value })
        let browser = try #require(hub.connect(greeting: "hello"))
        var context = OutputContext()
        for seq in 1...5 {
            context.seq = seq
            front.receive(.begin(seq: seq, text: "counter.increment"), in: context)
        }
        // A second later there is room for one more.
        time.set(.seconds(1))
        front.receive(.begin(seq: 6, text: "counter.reset"), in: context)
        hub.finish()
        var messages: [String] = []
        for await message in browser.messages { messages.append(message) }
        #expect(
            messages == [
                "hello",
                #"{"kind":"begin","seq":1,"text":"counter.increment"}"#,
                #"{"kind":"begin","seq":2,"text":"counter.increment"}"#,
                #"{"kind":"skipped","count":3}"#,
                #"{"kind":"begin","seq":6,"text":"counter.reset"}"#,
            ])
    }

    @Test func eachCommandsEndSaysHowLongItTookOnTheFrontsClock() async throws {
        let hub = InspectorHub()
        let time = Locked(Duration.zero)
        let front = InspectorFront(hub: hub, capacity: 100, perSecond: 100, now: { time.value })
        let browser = try #require(hub.connect(greeting: "hello"))
        var context = OutputContext()
        context.seq = 1
        front.receive(.begin(seq: 1, text: ":sleep 1500ms"), in: context)
        time.set(.milliseconds(1_500))
        front.receive(.done(seq: 1, outcome: "ok"), in: context)
        hub.finish()
        var messages: [String] = []
        for await message in browser.messages { messages.append(message) }
        #expect(messages.last == #"{"kind":"done","milliseconds":1500.0,"outcome":"ok","seq":1}"#)
    }
}
