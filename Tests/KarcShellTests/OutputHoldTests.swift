import KarcOutput
import KarcSynchronization
import Testing

/// A held sink writes nothing — not when due, not when flushed, not its
/// errors — and keeps all of it in order for the prompt to print above the
/// line being typed (a command the inspector's page runs there).
@Suite(.timeLimit(.minutes(1)))
struct OutputHoldTests {
    @Test func aHeldSinkKeepsOutputAndErrorsInOrderUntilTaken() {
        let written = KarcMutex<[String]>([])
        let sink = OutputSink(forwarding: { bytes, isError in
            written.withLock { $0.append((isError ? "err: " : "") + String(decoding: bytes, as: UTF8.self)) }
        })
        sink.hold(true)
        sink.write("state  counter:")
        sink.writeError("error: unknown command 'nosuch' for counter")
        sink.write("ok")
        sink.flush()
        sink.flushIfDue()
        #expect(written.withLock { $0 }.isEmpty)
        #expect(String(decoding: sink.takeBuffered(), as: UTF8.self) == "state  counter:\nerror: unknown command 'nosuch' for counter\nok\n")
        sink.hold(false)
        sink.write("after")
        sink.flush()
        #expect(written.withLock { $0 } == ["after\n"])
    }
}
