import KarcAsync
import Testing
import Trellis

/// A record keeps the link and time it was made with, exactly: a tool
/// rebuilds trees from the ids and times sends from the instants.
@Suite(.timeLimit(.minutes(1)))
struct ClusterRecordTests {
    let kind = ClusterRecord.Kind.handled(sequence: 7)

    @Test func aRootsLinkAndTimeComeBackAsTheyWereGiven() {
        let time = ContinuousClock.now
        let root = TraceLink(trace: 41, span: 41, parent: nil, origin: "timer counter|main|tick")
        let record = ClusterRecord(kind, link: root, time: time)
        #expect(record.link == root)
        #expect(record.link?.isRoot == true)
        #expect(record.time == time)
    }

    @Test func aChildsParentComesBackEvenWhenItIsZero() {
        let child = TraceLink(trace: 41, span: 43, parent: 0)
        let record = ClusterRecord(kind, link: child, time: nil)
        #expect(record.link == child)
        #expect(record.link?.parent == 0)
        #expect(record.link?.isRoot == false)
        #expect(record.time == nil)
    }

    @Test func anUntracedRecordHasNoLinkAndNoTime() {
        let record = ClusterRecord(kind, link: nil, time: .now)
        #expect(record.link == nil)
        #expect(record.time == nil)
    }

    @Test func instantsBeforeAndLongAfterNowKeepTheirOrderAndDistance() {
        let now = ContinuousClock.now
        let earlier = now - .seconds(3_600)
        let later = now + .seconds(86_400 * 365)
        let link = TraceLink(trace: 1, span: 1, parent: nil)
        let first = ClusterRecord(kind, link: link, time: earlier)
        let second = ClusterRecord(kind, link: link, time: later)
        #expect(first.time == earlier)
        #expect(second.time == later)
        #expect(first.time.flatMap { start in second.time.map { start.duration(to: $0) } } == earlier.duration(to: later))
    }

    @Test func aLinksOriginComesBackByNameThroughARecord() {
        let timer = TraceLink(trace: 5, span: 5, parent: nil, origin: "timer counter|main|tick")
        let emitter = TraceLink(trace: 5, span: 5, parent: nil, origin: "emitter clock")
        let again = TraceLink(trace: 5, span: 5, parent: nil, origin: "timer counter|main|tick")
        #expect(timer == again)
        #expect(timer != emitter)
        #expect(ClusterRecord(kind, link: emitter).link?.origin == "emitter clock")
        #expect(ClusterRecord(kind, link: timer).link?.origin == "timer counter|main|tick")
        #expect(TraceLink(trace: 5, span: 6, parent: 5).origin == nil)
    }

    @Test func aFullTableOfOriginsGivesItsOldestNamesSlotToANewOne() {
        var table = TraceOriginTable(capacity: 2)
        let first = table.origin(of: "timer a.tick")
        let second = table.origin(of: "timer b.tick")
        #expect(table.origin(of: "timer a.tick") == first)
        let third = table.origin(of: "timer c.tick")
        // An app that makes models as it runs names a new origin each: the table stays at its size.
        #expect(table.name(of: first) == nil)
        #expect(table.name(of: second) == "timer b.tick")
        #expect(table.name(of: third) == "timer c.tick")
        #expect(table.origin(of: "timer a.tick") != first)
        #expect(table.name(of: TraceOrigin.none) == nil)
    }
}
