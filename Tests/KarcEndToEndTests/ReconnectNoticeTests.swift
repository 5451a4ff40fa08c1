import Testing

@testable import KarcAttach

/// The line an attached prompt prints when it is back names what came back
/// and what did not, in words that fit how many there are.
@Suite(.timeLimit(.minutes(1))) struct ReconnectNoticeTests {
    let start =
        "reconnected to unix:/run/demo.sock: a new session in the app (its :history, :events, :timing and :diff start over; your line history stays)"

    func line(_ asked: ReconnectNotice.Kept, back: ([String], Bool)) -> String {
        ReconnectNotice(address: "unix:/run/demo.sock", asked: asked, back: back).text
    }

    @Test func nothingToBringBackSaysOnlyThatTheSessionIsNew() {
        #expect(line(.init(), back: ([], false)) == start + "\n")
    }

    @Test func whatCameBackIsCounted() {
        #expect(line(.init(watches: ["counter"]), back: (["counter"], false)) == start + "; your watch counter is back\n")
        #expect(line(.init(tracing: true), back: ([], true)) == start + "; :trace on is back\n")
        #expect(
            line(.init(watches: ["counter", "identity.user"], tracing: true), back: (["counter", "identity.user"], true))
                == start + "; your 2 watches and :trace on are back\n")
    }

    @Test func anInspectorIsANewPageOrNoneAsTheAppSaid() {
        #expect(
            line(.init(inspector: true), back: ([], false))
                == start + "; the inspector is a new page, at the address above (the old page ended with the old session)\n")
        #expect(
            ReconnectNotice(address: "unix:/run/demo.sock", asked: .init(inspector: true), back: ([], false), inspectorServed: false).text
                == start + "; the new session serves no inspector, as the app said above (the old page ended with the old session)\n")
    }

    @Test func whatDidNotComeBackIsNamed() {
        #expect(
            line(.init(watches: ["counter", "shop.total"], tracing: true), back: (["counter"], false))
                == start
                + "; your watch counter is back; not watched again: shop.total (the app said why); traces are off (:trace on prints them again)\n")
        #expect(line(.init(snapshots: ["s1"]), back: ([], false)) == start + "; the snapshot s1 went with the old session\n")
        #expect(line(.init(snapshots: ["s1", "s2"]), back: ([], false)) == start + "; the snapshots s1, s2 went with the old session\n")
    }
}
