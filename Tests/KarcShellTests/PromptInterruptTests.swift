import KarcAsync
import KarcSynchronization
import TestSupport
import Testing

@testable import KarcOutput
@testable import KarcSession

/// Ctrl-C at the prompt when nothing runs, and while lines typed ahead
/// wait for room in the output: the first interrupts nothing, the second
/// ends the wait and the lines do not run.
@Suite("Prompt: Ctrl-C between commands", .timeLimit(.minutes(1)))
struct PromptInterruptTests {
    /// A line editor driven by the test: the lines it is given wait in it
    /// until the prompt takes them; each time the prompt falls asleep
    /// waiting for input is said, with how many times it has.
    final class HandEditor: PromptEditor {
        private struct State {
            var inputs: [PromptInput] = []
            var wake: (@Sendable () -> Void)?
            var naps = 0
            var resumes = 0
            /// Runs once, when the prompt next finds no input: what comes just as it looks.
            var whenFoundNothing: (@Sendable () -> Void)?
        }

        private let state = KarcMutex(State())
        /// The count of naps, after each one.
        let naps: AsyncStream<Int>
        private let napping: AsyncStream<Int>.Continuation
        /// The count of prompts shown again after a line, after each one.
        let resumed: AsyncStream<Int>
        private let resuming: AsyncStream<Int>.Continuation

        init() {
            (naps, napping) = AsyncStream.makeStream()
            (resumed, resuming) = AsyncStream.makeStream()
        }

        /// The user enters `inputs`, in one go (a pasted block).
        func enter(_ inputs: [PromptInput]) {
            state.withLock { s -> (@Sendable () -> Void)? in
                s.inputs += inputs
                return s.wake.take()
            }?()
        }

        func start() {}

        func take() -> PromptInput? {
            let (input, arriving) = state.withLock { s -> (PromptInput?, (@Sendable () -> Void)?) in
                s.inputs.isEmpty ? (nil, s.whenFoundNothing.take()) : (s.inputs.removeFirst(), nil)
            }
            arriving?()
            return input
        }

        /// `arrive` runs the next time the prompt looks for input and finds none, right after it looked.
        func justAfterTheNextEmptyLook(_ arrive: @escaping @Sendable () -> Void) {
            state.withLock { $0.whenFoundNothing = arrive }
        }

        func onInput(_ wake: @escaping @Sendable () -> Void) {
            let (ready, naps) = state.withLock { s -> (Bool, Int?) in
                guard s.inputs.isEmpty else { return (true, nil) }
                s.wake = wake
                s.naps += 1
                return (false, s.naps)
            }
            if ready { wake() }
            if let naps { napping.yield(naps) }
        }

        func print(_ bytes: [UInt8]) {}

        func resume(_ resume: PromptResume) {
            resuming.yield(
                state.withLock { s in
                    s.resumes += 1
                    return s.resumes
                })
        }

        func stop() async {}

        func dropTypedAhead() -> Int {
            state.withLock { s in
                let lines = s.inputs.count { if case .line = $0 { true } else { false } }
                s.inputs.removeAll { if case .line = $0 { true } else { false } }
                return lines
            }
        }
    }

    /// A prompt on `editor` and a cluster that pushes no records (the lines
    /// here are meta commands), printing into `printed`, its output's room `room`.
    func prompt(
        _ editor: HandEditor, interrupter: Interrupter, room: (any OutputRoom)? = nil, clock: ShellClock = .continuous, printed: Locked<String>
    ) -> Task<ScriptRunner.Result, Never> {
        var options = ShellOptions()
        options.printing.color = false
        options.printing.quiet = true
        let sink = OutputSink(forwarding: { bytes, _ in printed.withLock { $0 += String(decoding: bytes, as: UTF8.self) } }, room: room)
        let runtime = ShellRuntime(clock: clock, executor: ShellExecutor(name: "karc-prompt-test"))
        return Task {
            let session = ShellSession(
                cluster: SessionClockTests.Sluggish(), options: options, sink: sink, interrupter: interrupter, runtime: runtime)
            var prompt = Prompt(session: session, editor: editor)
            prompt.greets = false
            return await prompt.run()
        }
    }

    /// A Ctrl-C that reaches the session after its command ended (pressed
    /// as it ended, or sent by an attached shell at an idle prompt) is let
    /// go when the prompt next falls asleep: kept, it ended every wait of
    /// the idle prompt at once (the session's thread spun until the next
    /// line) and failed the next line as "interrupted".
    @Test func aCtrlCWhenNoCommandRunsInterruptsNothing() async {
        let editor = HandEditor()
        let interrupter = Interrupter()
        let printed = Locked("")
        let ran = prompt(editor, interrupter: interrupter, printed: printed)
        var naps = editor.naps.makeAsyncIterator()
        #expect(await naps.next() == 1)
        interrupter.trigger()
        #expect(await naps.next() == 2)
        #expect(!interrupter.isTriggered)
        editor.enter([.line(":timing on"), .endOfInput])
        #expect(await ran.value == .succeeded)
        #expect(!printed.value.contains("interrupted"), "\(printed.value)")
    }

    /// A line and a Ctrl-C for it that come just as the idle prompt found
    /// no input: the Ctrl-C is kept for the next look, which finds the line
    /// and does not run it (letting every idle Ctrl-C go would run it).
    @Test func aCtrlCThatComesWithALineAsThePromptLooksIsForThatLine() async {
        let editor = HandEditor()
        let interrupter = Interrupter()
        let printed = Locked("")
        let ran = prompt(editor, interrupter: interrupter, printed: printed)
        var naps = editor.naps.makeAsyncIterator()
        #expect(await naps.next() == 1)
        editor.justAfterTheNextEmptyLook {
            editor.enter([.line(":frobnicate")])
            interrupter.trigger()
        }
        // Wakes the prompt, which looks and finds nothing; the line and its Ctrl-C come right then.
        editor.enter([])
        var resumed = editor.resumed.makeAsyncIterator()
        #expect(await resumed.next() == 1)
        #expect(printed.value == "error: interrupted: the line did not run\n")
        editor.enter([.endOfInput])
        #expect(await ran.value == .succeeded)
    }

    /// Ctrl-C while a line runs (a `:sleep`) interrupts it, and the lines
    /// entered after it, which wait in the editor, do not run either.
    @Test func aCtrlCWhileALineRunsDropsTheLinesEnteredAfterIt() async {
        let editor = HandEditor()
        let interrupter = Interrupter()
        let hand = SessionClockTests.Hand()
        let printed = Locked("")
        let ran = prompt(editor, interrupter: interrupter, clock: hand.shellClock, printed: printed)
        var naps = editor.naps.makeAsyncIterator()
        #expect(await naps.next() == 1)
        editor.enter([.line(":sleep 5m"), .line(":frobnicate"), .line(":frobnicate")])
        for await moment in hand.armed where moment >= .seconds(300) { break }
        interrupter.trigger()
        var resumed = editor.resumed.makeAsyncIterator()
        #expect(await resumed.next() == 1)
        #expect(await resumed.next() == 2)
        #expect(printed.value.hasSuffix("error: interrupted: 2 lines did not run\n"), "\(printed.value)")
        #expect(!printed.value.contains("frobnicate"), "\(printed.value)")
        editor.enter([.endOfInput])
        #expect(await ran.value == .succeeded)
    }

    /// Lines pasted while the output has no room (an attached shell that
    /// stopped reading) wait for it; Ctrl-C ends the wait, the line waiting
    /// and those after it do not run, and the shell says how many.
    @Test func aCtrlCWhileLinesTypedAheadWaitForRoomDropsThem() async {
        let editor = HandEditor()
        let interrupter = Interrupter()
        let room = OutputRoomTests.HandRoom()
        room.give()
        let printed = Locked("")
        let ran = prompt(editor, interrupter: interrupter, room: room, printed: printed)
        var naps = editor.naps.makeAsyncIterator()
        #expect(await naps.next() == 1)
        room.take()
        var waits = room.registrations.makeAsyncIterator()
        editor.enter([.line(":timing on"), .line(":timing off"), .line(":history")])
        _ = await waits.next()
        interrupter.trigger()
        var resumed = editor.resumed.makeAsyncIterator()
        #expect(await resumed.next() == 1)
        #expect(printed.value == "error: interrupted: 3 lines did not run (they waited for room in the shell's output)\n")
        room.give()
        #expect(await naps.next() == 2)
        // The prompt goes on: the next line runs.
        editor.enter([.line(":frobnicate"), .endOfInput])
        #expect(await ran.value == .succeeded)
        #expect(printed.value.components(separatedBy: "\n").filter { $0.hasPrefix("error: ") }.count == 2, "\(printed.value)")
        #expect(printed.value.contains(":frobnicate"), "\(printed.value)")
    }
}
