import KarcSession
import Testing

/// The inbox between pages and their session: a question waits for the
/// session; too many at once are told the session is busy, and once the
/// session ended every question is told so, none waits forever.
@Suite(.timeLimit(.minutes(1)))
struct SessionInboxTests {
    @Test func pastItsLimitAQuestionIsToldAtOnceThatTheSessionIsBusy() async {
        let inbox = SessionInbox(limit: 2)
        let first = Task { await inbox.ask(.overview) }
        let second = Task { await inbox.ask(.trace(1)) }
        await inbox.untilWaiting(2)
        #expect(inbox.hasQuestions)
        #expect(await inbox.ask(.diagram(1)) == #"{"error":"the session is busy: 2 questions wait for it already"}"#)
        inbox.close()
        #expect(await first.value == #"{"error":"the session ended"}"#)
        #expect(await second.value == #"{"error":"the session ended"}"#)
        #expect(!inbox.hasQuestions)
        #expect(await inbox.ask(.overview) == #"{"error":"the session ended"}"#)
    }
}
