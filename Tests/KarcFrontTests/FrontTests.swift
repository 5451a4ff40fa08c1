import Foundation
import KarcDemo
import KarcSession
import KarcSessionTrellis
import Testing

/// A front beside the text (a browser, next) subscribes to the session and
/// is told every command's flow, in order; the text is written as before.
@Suite(.timeLimit(.minutes(1)))
struct FrontTests {
    var options: ShellOptions {
        var options = ShellOptions()
        options.printing.color = false
        options.keepGoing = true
        return options
    }

    /// A session on a demo cluster of its own, written into `sink`.
    func session(writingTo sink: OutputSink) async throws -> (ShellSession, ClusterShell) {
        let cluster = ClusterShell(name: "demo", cluster: try await DemoCluster.makeForTesting(tick: .seconds(3_600)))
        return (ShellSession(cluster: cluster, options: options, sink: sink), cluster)
    }

    @Test func aFrontIsToldEachCommandFromItsLineToItsOutcome() async throws {
        let sink = OutputSink(capturing: ())
        let (session, cluster) = try await session(writingTo: sink)
        let front = FlowRecorder()
        _ = session.subscribe(front)
        _ = await ScriptRunner(session: session).run(
            lines: ["counter.increment", "counter.nosuch", #"identity.login email="jill@example.com" password="secret""#], name: "flow.karc")
        #expect(
            front.lines == [
                "#1 counter.increment",
                "#1 state of counter changed",
                "#1 ok",
                "#2 counter.nosuch",
                "#2 error: unknown command 'nosuch' for counter. Commands: increment, increment-by-three, reset",
                "#2 error",
                #"#3 identity.login email="jill@example.com" password="secret""#,
                "#3 event from account: UpdatedAccount",
                "#3 state of articles changed",
                "#3 state of account changed",
                "#3 state of identity changed",
                "#3 ok",
            ])
        let text = String(decoding: sink.takeCaptured(), as: UTF8.self)
        #expect(text.contains("state  counter:"), "the text is written as without a front: \(text)")
        await cluster.shutDown()
    }

    @Test func twoFrontsHearTheSameAndOneThatLeavesHearsNoMore() async throws {
        let (session, cluster) = try await session(writingTo: OutputSink(capturing: ()))
        let (staying, leaving) = (FlowRecorder(), FlowRecorder())
        _ = session.subscribe(staying)
        let subscription = session.subscribe(leaving)
        _ = await ScriptRunner(session: session).run(lines: ["counter.increment"], name: nil)
        session.unsubscribe(subscription)
        _ = await ScriptRunner(session: session).run(lines: ["counter.reset"], name: nil)
        #expect(leaving.lines == ["#1 counter.increment", "#1 state of counter changed", "#1 ok"])
        #expect(staying.lines == leaving.lines + ["#2 counter.reset", "#2 state of counter changed", "#2 ok"])
        await cluster.shutDown()
    }

    @Test func aSubscriptionEndedTwiceEndsNoOtherFront() async throws {
        let (session, cluster) = try await session(writingTo: OutputSink(capturing: ()))
        let (first, later) = (FlowRecorder(), FlowRecorder())
        let ended = session.subscribe(first)
        session.unsubscribe(ended)
        _ = session.subscribe(later)
        // A stale subscription (ended already) names no front subscribed since.
        session.unsubscribe(ended)
        _ = await ScriptRunner(session: session).run(lines: ["counter.increment"], name: nil)
        #expect(first.lines.isEmpty)
        #expect(later.lines == ["#1 counter.increment", "#1 state of counter changed", "#1 ok"])
        await cluster.shutDown()
    }
}
