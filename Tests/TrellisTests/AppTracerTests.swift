import InMemoryTracing
import Karc
import Testing
import Tracing
import Trellis

/// An app that bootstrapped a tracer (swift-otel, say) gets every send as a
/// span, nested inside its own spans, with no karc-specific code.
@Suite(.timeLimit(.minutes(1)))
struct AppTracerTests {
    @Test func anAppsTracerReceivesEachSendNestedInTheSpanThatCausedIt() async throws {
        let tracer = InMemoryTracer()
        // What `InstrumentationSystem.bootstrap(tracer)` does for the whole process, for this test only.
        let cluster = try await withTracer(tracer) {
            try await Bootstrap {
                Store(model: Tally.self)
                    .mutate(on: Ping.self) { tally, _, send in
                        tally.total += 1
                        try await send(Pong())
                    }
                    .with(model: Tally()).named("a")
                Store(model: Tally.self)
                    .mutate(on: Pong.self) { tally, _, _ in tally.total += 10 }
                    .with(model: Tally()).named("b")
                KarcCounter.service(.init(environ: Environ())).named("counter")
            }
        }
        // The app's own span, a request handler's say, with karc's sends inside it.
        try await tracer.withSpan("GET /ping") { _ in
            try await cluster.send(action: Ping())
            try await cluster.send(action: Relay())
        }
        #expect(await cluster.settled(timeout: .seconds(30)))

        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.operationName == "GET /ping" })
        let ping = try #require(spans.first { $0.operationName == "a.Ping" })
        let pong = try #require(spans.first { $0.operationName == "b.Pong" })
        let relay = try #require(spans.first { $0.operationName == "counter.Relay" })
        #expect(ping.parentSpanID == request.spanID)
        #expect(pong.parentSpanID == ping.spanID)
        #expect(relay.parentSpanID == request.spanID)
        #expect(Set([request, ping, pong, relay].map(\.traceID)).count == 1)
        #expect(ping.attributes["karc.action"]?.toSpanAttribute() == "Ping")
        #expect(ping.attributes["karc.targets"]?.toSpanAttribute() == "a")
        #expect(ping.attributes["karc.outcome"]?.toSpanAttribute() == "handled")
        await cluster.shutDown()
    }

    @Test func aFailedSendIsAFailedSpan() async throws {
        let tracer = InMemoryTracer()
        let cluster = try await withTracer(tracer) {
            try await Bootstrap {
                Store(model: Tally.self).mutate(on: Ping.self) { _, _, _ in throw Boom() }.with(model: Tally()).named("a")
            }
        }
        await #expect(throws: Boom()) { try await cluster.send(action: Ping()) }
        let span = try #require(tracer.finishedSpans.first { $0.operationName == "a.Ping" })
        #expect(span.errors.count == 1)
        #expect(span.attributes["karc.outcome"]?.toSpanAttribute() == "failed")
    }
}
