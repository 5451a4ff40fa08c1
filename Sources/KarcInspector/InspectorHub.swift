import KarcAsync
import KarcSynchronization

/// The messages a session's inspector sends, and the browsers that watch
/// it: each gets the recent history when it connects, then every message as
/// it is published, through a buffer of its own. A browser that falls
/// behind (a slow machine, a tab in the background) loses the messages its
/// buffer has no room for, counted, and is told how many before the next
/// one it gets (`{"kind":"skipped","count":N}`): the session never waits
/// for a browser.
///
/// ```
///  InspectorFront ── publish(line) ──▶ history (the last `historyLimit`)
///                                  └─▶ each browser's buffer (`bufferLimit`; past it, counted as skipped)
///                                          └──▶ its WebSocket writer (InspectorServer)
/// ```
package final class InspectorHub: Sendable {
    private struct Browser {
        let continuation: AsyncStream<String>.Continuation
        var skipped = 0
    }

    private struct State {
        var history: [String] = []
        /// Where the oldest message of a full history is (a ring).
        var oldest = 0
        var browsers: [Int: Browser] = [:]
        var lastID = 0
        var isFinished = false
        /// What the front left out since the last message it made (``skip(messages:commands:)``).
        var leftOut = (messages: 0, commands: 0)
        /// Tests waiting for a number of browsers (``untilBrowsers(_:)``).
        var watchers = StateWatchers()
    }

    /// How many recent messages a browser that connects is sent first.
    package let historyLimit: Int
    /// How many messages a browser may fall behind before they are skipped.
    package let bufferLimit: Int
    /// How many browsers may watch at once.
    package let browserLimit: Int
    private let state = KarcMutex(State())

    package init(historyLimit: Int = 2_000, bufferLimit: Int = 10_000, browserLimit: Int = 16) {
        self.historyLimit = max(1, historyLimit)
        self.bufferLimit = max(1, bufferLimit)
        self.browserLimit = max(1, browserLimit)
    }

    /// Sends `message` to every browser, and keeps it for those that connect later.
    package func publish(_ message: String) {
        state.withLock { s in
            guard !s.isFinished else { return }
            Self.sayLeftOut(in: &s, historyLimit: historyLimit)
            Self.publish(message, in: &s, historyLimit: historyLimit)
        }
    }

    /// The front left out `messages` messages and `commands` whole commands:
    /// every browser is told, in one message, before the next it gets (an
    /// answer to its question, or the end).
    package func skip(messages: Int, commands: Int) {
        state.withLock { s in
            s.leftOut.messages += messages
            s.leftOut.commands += commands
        }
    }

    private static func sayLeftOut(in s: inout State, historyLimit: Int) {
        guard s.leftOut != (0, 0) else { return }
        let (messages, commands) = s.leftOut
        s.leftOut = (0, 0)
        publish(#"{"kind":"skipped","count":\#(messages),"commands":\#(commands)}"#, in: &s, historyLimit: historyLimit)
    }

    private static func publish(_ message: String, in s: inout State, historyLimit: Int) {
        if s.history.count < historyLimit {
            s.history.append(message)
        } else {
            s.history[s.oldest] = message
            s.oldest = (s.oldest + 1) % historyLimit
        }
        // In place: a browser's skipped count is kept where it is.
        for index in s.browsers.values.indices { Self.send(message, to: &s.browsers.values[index]) }
    }

    /// A browser connects: the messages it is sent, the recent history first;
    /// nil when `browserLimit` browsers watch already, or the hub finished.
    package func connect(greeting: String) -> (id: Int, messages: AsyncStream<String>)? {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        var met: [UnsafeContinuation<Void, Never>] = []
        let id = state.withLock { s -> Int? in
            guard !s.isFinished, s.browsers.count < browserLimit else { return nil }
            s.lastID += 1
            var browser = Browser(continuation: continuation)
            Self.send(greeting, to: &browser)
            for index in s.history.indices { Self.send(s.history[(s.oldest + index) % s.history.count], to: &browser) }
            s.browsers[s.lastID] = browser
            met = StateWatchers.satisfied(in: &s, \.watchers)
            return s.lastID
        }
        for watcher in met { watcher.resume() }
        guard let id else {
            continuation.finish()
            return nil
        }
        continuation.onTermination = { [weak self] _ in self?.disconnect(id) }
        return (id, stream)
    }

    /// Sends `message` to the browser `id` alone (an answer to its question); nothing when it is gone.
    package func tell(_ message: String, to id: Int) {
        state.withLock { s in
            guard s.browsers[id] != nil else { return }
            // What was left out comes first: the answer may be about what followed it.
            Self.sayLeftOut(in: &s, historyLimit: historyLimit)
            guard var browser = s.browsers[id] else { return }
            Self.send(message, to: &browser)
            s.browsers[id] = browser
        }
    }

    /// The browser `id` is gone: nothing more is kept for it.
    package func disconnect(_ id: Int) {
        let (browser, met) = state.withLock { s in
            let browser = s.browsers.removeValue(forKey: id)
            return (browser, StateWatchers.satisfied(in: &s, \.watchers))
        }
        browser?.continuation.finish()
        for watcher in met { watcher.resume() }
    }

    /// Returns once `count` holds of the number of browsers watching (at once if it does now).
    package func untilBrowsers(_ count: @escaping @Sendable (Int) -> Bool) async {
        await StateWatchers.until({ count($0.browsers.count) }, in: state, at: \.watchers)
    }

    /// How many browsers watch now.
    package var browsers: Int { state.withLock { $0.browsers.count } }

    /// Whether ``finish()`` was called: no browser connects any more.
    package var isFinished: Bool { state.withLock { $0.isFinished } }

    /// The session ended: every browser's messages end once it has read them.
    package func finish() {
        let (browsers, met) = state.withLock { s -> ([Browser], [UnsafeContinuation<Void, Never>]) in
            if !s.isFinished { Self.sayLeftOut(in: &s, historyLimit: historyLimit) }
            s.isFinished = true
            let browsers = Array(s.browsers.values)
            s.browsers = [:]
            return (browsers, StateWatchers.satisfied(in: &s, \.watchers))
        }
        for browser in browsers { browser.continuation.finish() }
        for watcher in met { watcher.resume() }
    }

    /// Gives `message` to `browser`, first telling it how many it missed, if any.
    private static func send(_ message: String, to browser: inout Browser) {
        if browser.skipped > 0 {
            guard case .enqueued = browser.continuation.yield(#"{"kind":"skipped","count":\#(browser.skipped)}"#) else {
                browser.skipped += 1
                return
            }
            browser.skipped = 0
        }
        if case .dropped = browser.continuation.yield(message) { browser.skipped += 1 }
    }
}
