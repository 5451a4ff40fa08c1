import KarcInspector
import KarcOutput
import KarcSynchronization
import Testing

/// The front makes a message of each event while the session is slow
/// enough to watch; past its budget (a piped script), it leaves whole
/// commands out and says how many, so watching does not slow the session
/// down and the page never shows a command that does not end. A failure is
/// shown whatever the budget.
@Suite(.timeLimit(.minutes(1)))
struct InspectorFrontTests {
    /// A session's fast script, driven into a front on a clock the test moves.
    final class Script {
        let hub = InspectorHub()
        let time = Locked(Duration.zero)
        let front: InspectorFront
        let browser: (id: Int, messages: AsyncStream<String>)

        init(capacity: Int, perSecond: Int) throws {
            let time = time
            front = InspectorFront(hub: hub, capacity: capacity, perSecond: perSecond, now: { time.value })
            browser = try #require(hub.connect(greeting: "hello"))
        }

        /// Command `seq`: its line, a reply, and an error when `fails`, then its end.
        func run(_ seq: Int, _ text: String = "counter.increment", fails: Bool = false) {
            var context = OutputContext()
            context.seq = seq
            front.receive(.begin(seq: seq, text: text), in: context)
            front.receive(.reply(target: "counter", value: seq), in: context)
            if fails { front.receive(.error("no such command", at: OutputEvent.SourceLocation(line: seq, column: 1)), in: context) }
            front.receive(.done(seq: seq, outcome: fails ? "error" : "ok"), in: context)
        }

        /// What the browser was sent, once the session ended.
        func messages() async -> [String] {
            hub.finish()
            var messages: [String] = []
            for await message in browser.messages { messages.append(message) }
            return messages
        }
    }

    @Test func pastItsBudgetTheFrontLeavesWholeCommandsOutAndSaysHowManyWhenItGoesOn() async throws {
        let script = try Script(capacity: 5, perSecond: 1)
        for seq in 1...4 { script.run(seq) }
        // Three seconds later there is room again.
        script.time.set(.seconds(3))
        script.run(5, "counter.reset")
        #expect(
            await script.messages() == [
                "hello",
                #"{"kind":"begin","seq":1,"text":"counter.increment"}"#,
                #"{"kind":"reply","seq":1,"target":"counter","type":"Int","value":1}"#,
                #"{"kind":"done","milliseconds":0.0,"outcome":"ok","seq":1}"#,
                #"{"kind":"begin","seq":2,"text":"counter.increment"}"#,
                #"{"kind":"reply","seq":2,"target":"counter","type":"Int","value":2}"#,
                #"{"kind":"done","milliseconds":0.0,"outcome":"ok","seq":2}"#,
                #"{"kind":"skipped","count":2,"commands":2}"#,
                #"{"kind":"begin","seq":5,"text":"counter.reset"}"#,
                #"{"kind":"reply","seq":5,"target":"counter","type":"Int","value":5}"#,
                #"{"kind":"done","milliseconds":0.0,"outcome":"ok","seq":5}"#,
            ])
    }

    /// The budget running out in the middle of a shown command leaves none
    /// of its output out: its row never lacks a change it made.
    @Test func aCommandShownIsShownWholeThoughTheBudgetRanOutInItsMiddle() async throws {
        let script = try Script(capacity: 1, perSecond: 1)
        script.run(1)
        script.run(2)
        #expect(
            await script.messages() == [
                "hello",
                #"{"kind":"begin","seq":1,"text":"counter.increment"}"#,
                #"{"kind":"reply","seq":1,"target":"counter","type":"Int","value":1}"#,
                #"{"kind":"done","milliseconds":0.0,"outcome":"ok","seq":1}"#,
                #"{"kind":"skipped","count":1,"commands":1}"#,
            ])
    }

    @Test func aFailingCommandIsShownThoughTheBudgetLeftItOut() async throws {
        let script = try Script(capacity: 2, perSecond: 1)
        script.run(1)
        script.run(2, "counter.nosuch", fails: true)
        let messages = await script.messages()
        #expect(
            messages.dropFirst(4) == [
                #"{"kind":"skipped","count":1,"commands":0}"#,  // its reply, before the failure, is gone
                #"{"kind":"begin","seq":2,"text":"counter.nosuch"}"#,
                #"{"column":1,"kind":"error","line":2,"message":"no such command","seq":2}"#,
                #"{"kind":"done","milliseconds":0.0,"outcome":"error","seq":2}"#,
            ])
    }

    @Test func whatWasLeftOutAtTheEndIsSaidBeforeThePageIsToldTheSessionEnded() async throws {
        let script = try Script(capacity: 1, perSecond: 1)
        for seq in 1...3 { script.run(seq) }
        let messages = await script.messages()
        #expect(messages.last == #"{"kind":"skipped","count":2,"commands":2}"#, "\(messages)")
    }

    @Test func whatWasLeftOutIsSaidBeforeTheAnswerToAPagesQuestion() async throws {
        let script = try Script(capacity: 1, perSecond: 1)
        for seq in 1...2 { script.run(seq) }
        script.hub.tell(#"{"kind":"answer","id":1,"answer":{}}"#, to: script.browser.id)
        let messages = await script.messages()
        #expect(
            messages.suffix(2) == [
                #"{"kind":"skipped","count":1,"commands":1}"#,
                #"{"kind":"answer","id":1,"answer":{}}"#,
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
