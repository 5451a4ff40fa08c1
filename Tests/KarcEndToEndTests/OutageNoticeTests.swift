import Testing

@testable import KarcAttach

/// An attached prompt whose app is away says so once, once more when its
/// tries have slowed to their longest pause, and then keeps quiet.
@Suite(.timeLimit(.minutes(1))) struct OutageNoticeTests {
    @Test func aLongOutageIsToldTwiceNotAtEveryTry() {
        var pause = ReconnectPause()
        var notices = OutageNotices()
        var told: [String] = []
        for _ in 0..<30 {
            if let text = notices.before(pause.take(newOutage: false), reason: "connection lost") { told.append(text) }
        }
        #expect(
            told == [
                "connection lost\nreconnecting in 500ms (:quit or Ctrl-D leaves; :help lists the commands)\n",
                "still no connection; trying again every 10s, quietly\n",
            ])
    }

    @Test func theNextOutageIsToldAfresh() {
        var notices = OutageNotices()
        _ = notices.before(.seconds(10), reason: "first")
        notices = OutageNotices()  // reconnected
        #expect(notices.before(.milliseconds(500), reason: "second")?.hasPrefix("second\nreconnecting in 500ms") == true)
    }
}
