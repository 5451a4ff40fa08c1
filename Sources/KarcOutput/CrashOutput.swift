import Foundation
import Synchronization

/// What a script printed is not lost when the app under it crashes.
///
/// Output is written in batches (``OutputSink/interval``), so a trap in a
/// handler (an overflow, a force unwrap) would end the process with the
/// last commands' output still in the buffer, and the user would see the
/// crash report without the states that led to it. A sink that asks
/// (``OutputSink/keepsOutputThroughACrash()``) publishes where its buffer is
/// after each change; on a crash signal, a handler writes those bytes to the
/// sink's descriptor (`write(2)` is async-signal-safe), puts back the
/// handler that was there before (Swift's backtracer), and lets the signal
/// go on to it: a fault is raised again by its instruction, an abort or a
/// breakpoint trap by `raise`.
package enum CrashOutput {
    /// The buffer's address and length (0: nothing), and the descriptor it goes to.
    private static let base = Atomic<UInt>(0)
    private static let count = Atomic<Int>(0)
    private static let descriptor = Atomic<Int32>(-1)
    /// Set by the first crash signal: a fault while writing goes straight on.
    private static let crashing = Atomic<Bool>(false)
    /// The actions that were there before, one a signal (index `signal`), allocated once.
    private static let previous = Atomic<UInt>(0)

    private static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]
    /// Slots for the previous actions: every signal above is below 32.
    private static let slots = 32

    /// Installs the handlers, once; what is published is written to `fd`.
    static func install(writingTo fd: Int32) {
        guard descriptor.compareExchange(expected: -1, desired: fd, ordering: .relaxed).exchanged else { return }
        let saved = UnsafeMutablePointer<sigaction>.allocate(capacity: slots)
        saved.initialize(repeating: sigaction(), count: slots)
        previous.store(UInt(bitPattern: saved), ordering: .releasing)
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in CrashOutput.crashed(signal) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_ONSTACK
            sigaction(signal, &action, saved + Int(signal))
        }
    }

    /// Whether a crash signal came: its handler wrote what was buffered, so
    /// a flush on another thread (which goes on while the backtracer works)
    /// must not write it again.
    static var isCrashing: Bool { crashing.load(ordering: .relaxed) }

    /// Where the buffer is now (its bytes stay there until the next call).
    static func publish(_ bytes: UnsafeRawBufferPointer) {
        // Length first to 0: a crash between the stores writes nothing rather than a length of another buffer.
        count.store(0, ordering: .relaxed)
        base.store(UInt(bitPattern: bytes.baseAddress), ordering: .relaxed)
        count.store(bytes.count, ordering: .releasing)
    }

    private static func crashed(_ signal: Int32) {
        if !crashing.exchange(true, ordering: .acquiring) {
            let length = count.load(ordering: .acquiring)
            if length > 0, let start = UnsafeRawPointer(bitPattern: base.load(ordering: .relaxed)) {
                var offset = 0
                while offset < length {
                    let written = write(descriptor.load(ordering: .relaxed), start + offset, length - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
        if let saved = UnsafeMutablePointer<sigaction>(bitPattern: previous.load(ordering: .acquiring)) {
            sigaction(signal, saved + Int(signal), nil)
        }
        // A fault is raised again by its instruction when this returns; an abort or a breakpoint is not.
        switch signal {
        case SIGILL, SIGSEGV, SIGBUS, SIGFPE: break
        default: raise(signal)
        }
    }
}
