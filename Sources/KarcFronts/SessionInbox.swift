@_spi(KarcInternal) import KarcAsync
import KarcSynchronization
import Synchronization

/// Questions to a session from outside its input: the inspector's page
/// asks for a state's parts, a command's trace, completions, or runs a
/// line. The session answers them on its own task between commands (at
/// the prompt while it waits for typing, in a script between lines), so
/// an answer sees the session as a command would and never races one.
///
/// ```
///  page ── ask(question) ──▶ inbox ──(between commands)──▶ ShellSession.answerQuestions ──▶ the answer's JSON
/// ```
package final class SessionInbox: Sendable {
    private struct State {
        var waiting: [(question: SessionQuestion, answer: Pending<String>)] = []
        /// Wakes a session asleep at the prompt.
        var onArrival: (@Sendable () -> Void)?
        /// No session answers any more: questions are answered at once with that.
        var isClosed = false
        /// Tests waiting for a number of questions (``untilWaiting(_:)``).
        var watchers = StateWatchers()
    }

    private let state = KarcMutex(State())
    /// Read on every line of a script: an atomic load, not a lock.
    private let count = Atomic<Int>(0)
    /// At most this many questions wait; past it a question is answered at once that the session is busy.
    package let limit: Int
    /// The pages may look but not act: a line to run, going back, a watch
    /// or a snapshot from the page is refused (an app served `--read-only`).
    package let isReadOnly: Bool

    package init(limit: Int = 64, readOnly: Bool = false) {
        self.limit = max(1, limit)
        isReadOnly = readOnly
    }

    /// The answer to `question`, a JSON object's text, once the session gave it.
    package func ask(_ question: SessionQuestion) async -> String {
        let answer = Pending<String>()
        let (wake, refusal, met) = state.withLock { s -> ((@Sendable () -> Void)?, String?, [UnsafeContinuation<Void, Never>]) in
            if s.isClosed { return (nil, SessionAnswer.refusal("the session ended"), []) }
            guard s.waiting.count < limit else {
                return (nil, SessionAnswer.refusal("the session is busy: \(limit) questions wait for it already"), [])
            }
            s.waiting.append((question, answer))
            count.add(1, ordering: .releasing)
            defer { s.onArrival = nil }
            return (s.onArrival, nil, StateWatchers.satisfied(in: &s, \.watchers))
        }
        for watcher in met { watcher.resume() }
        if let refusal { return refusal }
        wake?()
        return await answer.value() ?? SessionAnswer.refusal("the session ended")
    }

    /// Returns once `count` questions wait (tests: the questions were handed in).
    package func untilWaiting(_ count: Int) async {
        await StateWatchers.until({ $0.waiting.count >= count }, in: state, at: \.watchers)
    }

    /// Whether a question waits (cheap: read between every two lines of a script).
    package var hasQuestions: Bool { count.load(ordering: .acquiring) > 0 }

    /// The questions waiting, oldest first, taken.
    package func take() -> [(question: SessionQuestion, answer: Pending<String>)] {
        state.withLock { takeWaiting(&$0) }
    }

    /// The questions waiting, out of `s` (under its lock), and the count kept with them.
    private func takeWaiting(_ s: inout State) -> [(question: SessionQuestion, answer: Pending<String>)] {
        defer {
            count.subtract(s.waiting.count, ordering: .releasing)
            s.waiting = []
        }
        return s.waiting
    }

    /// Calls `wake` once when a question comes (at once if one waits).
    package func onArrival(_ wake: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if !s.waiting.isEmpty { return true }
            s.onArrival = wake
            return false
        }
        if now { wake() }
    }

    /// The session ended: what waits, and what comes, is answered so.
    package func close() {
        let waiting = state.withLock { s in
            s.isClosed = true
            s.onArrival = nil
            return takeWaiting(&s)
        }
        for item in waiting { item.answer.finish(SessionAnswer.refusal("the session ended")) }
    }
}
