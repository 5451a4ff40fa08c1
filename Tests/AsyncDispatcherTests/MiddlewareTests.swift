import AsyncDispatcher
import Testing

@Suite(.timeLimit(.minutes(1)))
struct MiddlewareTests {
    @Test func middlewaresAreAskedThenToldInOrderAroundEachAction() async throws {
        let store = CounterStore()
        let first = RecordingMiddleware("1")
        let second = RecordingMiddleware("2")
        await store.use([first, second])

        try await store.dispatch(CounterStore.Increment())

        #expect(first.recorded == ["1:should:Increment", "1:will:Increment", "1:did:Increment"])
        #expect(second.recorded == ["2:should:Increment", "2:will:Increment", "2:did:Increment"])
    }

    @Test func composedActionsPassThroughTheMiddlewaresToo() async throws {
        let store = CounterStore()
        let middleware = RecordingMiddleware("m")
        await store.use([middleware])

        try await store.dispatch(CounterStore.IncrementByThree())

        #expect(
            middleware.recorded.filter { $0.hasPrefix("m:did") } == [
                "m:did:Increment", "m:did:Increment", "m:did:Increment", "m:did:IncrementByThree",
            ])
    }

    @Test func theFirstMiddlewareThatSaysNoSkipsTheAction() async throws {
        let store = CounterStore()
        let veto = RecordingMiddleware("veto") { !($0 is CounterStore.Increment) }
        let later = RecordingMiddleware("later")
        await store.use([veto, later])

        try await store.dispatch(CounterStore.Increment())

        #expect(await store.count == 0)
        #expect(veto.recorded == ["veto:should:Increment"])
        #expect(later.recorded.isEmpty)
    }

    @Test func everyMiddlewareHearsOfAFailure() async throws {
        let store = CounterStore()
        let first = RecordingMiddleware("1")
        let second = RecordingMiddleware("2")
        await store.use([first, second])

        await #expect(throws: CounterStore.Fail.Refused.self) { try await store.dispatch(CounterStore.Fail()) }

        #expect(first.recorded == ["1:should:Fail", "1:will:Fail", "1:failed:Fail"])
        #expect(second.recorded == ["2:should:Fail", "2:will:Fail", "2:failed:Fail"])
    }

    @Test func theErrorOfAnEnqueuedActionReachesTheMiddlewares() async throws {
        let store = CounterStore()
        let middleware = RecordingMiddleware("m")
        await store.use([middleware])

        store.enqueue(CounterStore.Fail())
        try await store.dispatch(CounterStore.Increment())

        #expect(middleware.recorded.contains("m:failed:Fail"))
        #expect(await store.count == 1)
    }
}
