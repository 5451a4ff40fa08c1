import ServiceContextModule

/// What the library takes along where it hands work to another task: the
/// producer's karc link and its `ServiceContext` (an app's tracer's, or
/// the app's own values).
///
/// Code of an app that queues work of its own (a message answered a tick
/// later) carries it the same way, so what that work does is still its
/// sender's doing:
///
/// ```swift
/// let carried = TraceCarrier.current          // where the message is posted
/// …
/// try await carried.run { try await cluster.send(action: reply) }  // where it is answered
/// ```
public struct TraceCarrier: Sendable {
    let link: TraceLink?
    let context: ServiceContext?

    /// What the work running now would hand over.
    public static var current: TraceCarrier { TraceCarrier(link: TraceLocal.link, context: ServiceContext.current) }

    /// What the work running now would hand over; `nil` when there is
    /// nothing (no link, no context), so a hand-off carries no value.
    package static var ifAny: TraceCarrier? {
        let link = TraceLocal.link
        let context = ServiceContext.current
        guard link != nil || context != nil else { return nil }
        return TraceCarrier(link: link, context: context)
    }

    /// Runs `body` in the trace (and the context) this carrier took.
    public func run<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        guard let context else { return try await TraceLocal.slot.withValue(link, operation: body, isolation: isolation) }
        return try await ServiceContext.$current.withValue(
            context, operation: { try await TraceLocal.slot.withValue(link, operation: body, isolation: isolation) }, isolation: isolation)
    }

    /// Runs `body` (synchronous) in the trace this carrier took.
    package func run<T>(_ body: () throws -> T) rethrows -> T {
        guard let context else { return try TraceLocal.slot.withValue(link, operation: body) }
        return try ServiceContext.$current.withValue(context) { try TraceLocal.slot.withValue(link, operation: body) }
    }

    /// Runs `body` as `carrier` took it, or as it is when there is none.
    package static func run<T>(
        _ carrier: TraceCarrier?, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        guard let carrier else { return try await body() }
        return try await carrier.run(isolation: isolation, body)
    }

    /// Outside any trace and any context: where a long-lived task starts, so
    /// what it does later is never taken for the work that started it.
    package static let none = TraceCarrier(link: nil, context: .topLevel)
}
