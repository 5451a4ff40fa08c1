import KarcAsync
import KarcAttachProtocol
import KarcSession
import KarcSynchronization

/// The prompt of an attached shell, seen from the session in the app: the
/// lines the user enters arrive from the connection, and what the prompt
/// should do (show itself again, print above the line) goes back over it.
final class RemoteEditor: PromptEditor {
    private let outbox: Outbox
    private let inbox = KarcMutex<[PromptInput]>([])
    private let waiter = KarcMutex<(@Sendable () -> Void)?>(nil)
    private let interrupter: Interrupter
    private let words: PromptWords

    private let ledger: LineLedger
    /// The shell's prompt is `...> ` and no line came since: a Ctrl-C there drops the command that goes on.
    private let continuing = KarcMutex(false)

    /// Whether the shell's prompt shows `...> ` (no command runs).
    var isContinuing: Bool { continuing.withLock { $0 } }

    /// The shell's terminal width, as its last lines said (0: not known).
    private let width = KarcMutex(0)

    var columns: Int? {
        let columns = width.withLock { $0 }
        return columns > 0 ? columns : nil
    }

    /// The shell's terminal is `columns` wide (0: not a terminal).
    func resized(to columns: Int) {
        width.withLock { $0 = columns }
    }

    init(outbox: Outbox, ledger: LineLedger, interrupter: Interrupter, words: PromptWords) {
        self.outbox = outbox
        self.ledger = ledger
        self.interrupter = interrupter
        self.words = words
    }

    /// A line the user entered, or the end of input (Ctrl-D, or the connection gone).
    func deliver(_ input: PromptInput) {
        // From now on Ctrl-C is for this line, as at a local prompt.
        if case .line = input {
            continuing.withLock { $0 = false }
            interrupter.reset()
        }
        inbox.withLock { $0.append(input) }
        waiter.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }?()
    }

    /// The shell is gone: the lines it typed ahead that the session has not
    /// taken are dropped (they would run for nobody), and the input ends.
    func abandon() {
        inbox.withLock { $0.removeAll() }
        deliver(.endOfInput)
    }

    /// The lines the shell typed ahead that the session has not taken: their room goes back to the shell.
    func dropTypedAhead() -> Int {
        let dropped = inbox.withLock { inbox -> [String] in
            let lines = inbox.compactMap { if case .line(let line) = $0 { line } else { nil } }
            inbox.removeAll { if case .line = $0 { true } else { false } }
            return lines
        }
        for line in dropped { ledger.taken(line) }
        return dropped.count
    }

    func start() {
        let kept = words.kept
        send(
            .with {
                $0.start = .with {
                    $0.watches = kept.watches
                    $0.trace = kept.tracing
                }
            })
    }

    func take() -> PromptInput? {
        let input = inbox.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if case .line(let line)? = input { ledger.taken(line) }
        return input
    }

    func onInput(_ wake: @escaping @Sendable () -> Void) {
        let now = inbox.withLock { inbox -> Bool in
            guard inbox.isEmpty else { return true }
            waiter.withLock { $0 = wake }
            return false
        }
        if now { wake() }
    }

    func print(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        outbox.send(.with { $0.prompt = .with { $0.print = .init(bytes) } }, bytes: bytes.count)
    }

    func resume(_ resume: PromptResume) {
        continuing.withLock { $0 = resume.continuing }
        let (events, snapshots) = words.all
        let kept = words.kept
        send(
            .with {
                $0.resume = .with {
                    $0.continuing = resume.continuing
                    $0.remember = resume.remember ?? ""
                    $0.seenEvents = events
                    $0.snapshots = snapshots
                    $0.watches = kept.watches
                    $0.trace = kept.tracing
                }
            })
    }

    func stop() async {
        send(.with { $0.stop = .init() })
    }

    private func send(_ prompt: Karc_Attach_V1_PromptMessage) {
        outbox.send(.with { $0.prompt = prompt })
    }
}
