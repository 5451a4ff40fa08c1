import KarcOutput
import KarcRendering
import KarcTestExport

/// What a session keeps of what it ran and saw, each bounded by
/// `--history-limit`: the commands and their outcomes (`:history`), the
/// lines run at the top level (`:save`, `--record`), the sends and events a
/// test replays (`:export-test`), and the event types printed.
struct SessionLog {
    /// Command lines run this session (sends and meta commands), with what
    /// became of them (`:history`); an entry's number is its `seq`.
    var history: BoundedLog<HistoryEntry>
    /// The lines run at the top level (`:save`, `--record`).
    var record: SessionRecord
    /// Kept for `:export-test` and `export-test`: each send and event.
    var keepsTestSteps = true
    /// The states after each change printed too, for the test to assert
    /// the steps in between: `export-test SCRIPT` and the prompt keep them;
    /// a piped script does not (a long run on a long state would hold a
    /// copy of it a command).
    var keepsStates = false
    private(set) var testSteps: BoundedLog<TestStep>
    /// The event types printed so far, by name (beside those the catalog
    /// declares), and the snapshots kept: what the prompt completes.
    let words: PromptWords
    /// The invariants broken after the last command (a command is blamed only for one it broke).
    var brokenInvariants: Set<String> = []
    /// Whether the note that the session dropped its oldest commands was printed.
    private var notedDropping = false

    init(limit: Int, words: PromptWords) {
        history = BoundedLog(limit: limit)
        record = SessionRecord(limit: limit)
        testSteps = BoundedLog(limit: limit)
        self.words = words
    }

    /// True once, when the session first forgets its oldest commands.
    mutating func startsDropping() -> Bool {
        guard !notedDropping, history.dropped + record.dropped + testSteps.dropped > 0 else { return false }
        notedDropping = true
        return true
    }

    /// A command line starts: its number in `:history` (`seq` in `--json`).
    mutating func begin(_ line: String) -> Int {
        history.append(HistoryEntry(line: line))
        return history.total
    }

    /// The command numbered `seq` ended so.
    mutating func end(_ seq: Int, _ outcome: ShellSession.Outcome, output: HistoryEntry.CommandOutput = .init()) {
        history.update(seq) { entry in
            entry.outcome = outcome
            entry.output = output
        }
    }

    /// Output of the command `seq` printed after it ended (a late reply, work it set off): kept with its own.
    mutating func appendLate(_ seq: Int, _ late: HistoryEntry.CommandOutput) {
        guard !late.output.isEmpty || late.cut > 0 else { return }
        history.update(seq) { $0.output.append(late) }
    }

    /// Where the next step will go: a send is kept before the events it set off.
    var nextStep: Int { testSteps.total }

    /// A send, put at `position` (before the events it set off, after those that came before it).
    mutating func keep(_ send: TestStep, at position: Int) {
        if keepsTestSteps { testSteps.insert(send, at: position) }
    }

    /// An `:assert` ran: a test expects what it checked.
    mutating func checked(_ check: TestStep.Check) {
        if keepsTestSteps { testSteps.append(.check(check)) }
    }

    /// A change of `target`'s state printed: a test asserts the state it left.
    mutating func saw(state: any Sendable, of target: String) {
        if keepsTestSteps, keepsStates { testSteps.append(.state(target: target, state: state)) }
    }

    /// An event printed: its type is seen, and a test replays it. Its type's name.
    mutating func saw(event: any Sendable, from source: String) -> String {
        let typeName = ValueText.typeName(event)
        words.saw(event: typeName)
        if keepsTestSteps { testSteps.append(.event(source: source, event: event)) }
        return typeName
    }
}
