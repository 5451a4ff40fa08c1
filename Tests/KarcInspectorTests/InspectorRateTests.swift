import KarcInspector
import KarcOutput
import Testing

/// `KARC_INSPECT_RATE` sets how many messages a second a page is sent while
/// a session runs fast; what is not a rate is refused with what is accepted.
@Suite(.timeLimit(.minutes(1)))
struct InspectorRateTests {
    @Test func unsetOrEmptyItIsAThousand() throws {
        #expect(try InspectorRate(environment: [:]) == .standard)
        #expect(try InspectorRate(environment: ["KARC_INSPECT_RATE": " "]) == .standard)
        #expect(InspectorRate.standard.perSecond == 1_000)
    }

    @Test func aWholeNumberFromOneToAMillionIsTheRate() throws {
        #expect(try InspectorRate(environment: ["KARC_INSPECT_RATE": "50"]).perSecond == 50)
        #expect(try InspectorRate(environment: ["KARC_INSPECT_RATE": " 1 "]).perSecond == 1)
        #expect(try InspectorRate(environment: ["KARC_INSPECT_RATE": "1_000_000"]).perSecond == 1_000_000)
    }

    @Test(arguments: ["fast", "0", "-5", "1000001", "2.5", "99999999999999999999999"])
    func anythingElseIsRefusedSayingWhatIsAccepted(_ text: String) {
        #expect {
            try InspectorRate(environment: ["KARC_INSPECT_RATE": text])
        } throws: { error in
            "\(error)"
                == "KARC_INSPECT_RATE=\(text.debugDescription) is not a rate: give how many messages a second the page is sent"
                + " while the session runs faster than it can show, a whole number from 1 to 1000000 (unset, it is 1000)"
        }
    }

    /// A front at the rate makes that many messages in a burst, then leaves whole commands out (the clock stands still).
    @Test func aFrontAtARateOfThreeShowsOneCommandOfThreeMessages() async throws {
        let hub = InspectorHub()
        let browser = try #require(hub.connect(greeting: "hello"))
        let front = InspectorFront(hub: hub, rate: InspectorRate(perSecond: 3), now: { .zero })
        for seq in 1...3 {
            var context = OutputContext()
            context.seq = seq
            front.receive(.begin(seq: seq, text: "counter.increment"), in: context)
            front.receive(.reply(target: "counter", value: seq), in: context)
            front.receive(.done(seq: seq, outcome: "ok"), in: context)
        }
        hub.finish()
        var kinds: [String] = []
        for await message in browser.messages {
            kinds.append(message.firstMatch(of: /"kind":"(\w+)"/).map { String($0.1) } ?? message)
        }
        #expect(kinds == ["hello", "begin", "reply", "done", "skipped"])
    }
}
