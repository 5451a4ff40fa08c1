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

    /// A prompt on a ``HandEditor`` and a cluster that pushes no records
    /// (the lines here are meta commands), printing into `printed`.
    struct PromptRun {
        let editor = HandEditor()
        let interrupter = Interrupter()
        let printed = Locked("")
        let ran: Task<ScriptRunner.Result, Never>
        /// The count of the prompt's naps, after each one.
        var naps: AsyncStream<Int>.Iterator
        /// The count of prompts shown again after a line, after each one.
        var resumed: AsyncStream<Int>.Iterator

        /// Started, its output's room `room`, its clock `clock`; returns once the prompt first fell asleep.
        static func asleep(room: (any OutputRoom)? = nil, clock: ShellClock = .continuous) async -> PromptRun {
            var run = PromptRun(room: room, clock: clock)
            #expect(await run.naps.next() == 1)
            return run
        }

        private init(room: (any OutputRoom)?, clock: ShellClock) {
            var options = ShellOptions()
            options.printing.color = false
            options.printing.quiet = true
            let printed = printed
            let sink = OutputSink(forwarding: { bytes, _ in printed.withLock { $0 += String(decoding: bytes, as: UTF8.self) } }, room: room)
            let runtime = ShellRuntime(clock: clock, executor: ShellExecutor(name: "karc-prompt-test"))
            let (editor, interrupter) = (editor, self.interrupter)
            naps = editor.naps.makeAsyncIterator()
            resumed = editor.resumed.makeAsyncIterator()
            ran = Task {
                let session = ShellSession(
                    cluster: SessionClockTests.Sluggish(), options: options, sink: sink, interrupter: interrupter, runtime: runtime)
                var prompt = Prompt(session: session, editor: editor)
                prompt.greets = false
                return await prompt.run()
            }
        }
    }

    /// A Ctrl-C that reaches the session after its command ended (pressed
    /// as it ended, or sent by an attached shell at an idle prompt) is let
    /// go when the prompt next falls asleep: kept, it ended every wait of
    /// the idle prompt at once (the session's thread spun until the next
    /// line) and failed the next line as "interrupted".
    @Test func aCtrlCWhenNoCommandRunsInterruptsNothing() async {
        var run = await PromptRun.asleep()
        run.interrupter.trigger()
        #expect(await run.naps.next() == 2)
        #expect(!run.interrupter.isTriggered)
        run.editor.enter([.line(":timing on"), .endOfInput])
        #expect(await run.ran.value == .succeeded)
        #expect(!run.printed.value.contains("interrupted"), "\(run.printed.value)")
    }

    /// A line and a Ctrl-C for it that come just as the idle prompt found
    /// no input: the Ctrl-C is kept for the next look, which finds the line
    /// and does not run it (letting every idle Ctrl-C go would run it).
    @Test func aCtrlCThatComesWithALineAsThePromptLooksIsForThatLine() async {
        var run = await PromptRun.asleep()
        let (editor, interrupter) = (run.editor, run.interrupter)
        editor.justAfterTheNextEmptyLook {
            editor.enter([.line(":frobnicate")])
            interrupter.trigger()
        }
        // Wakes the prompt, which looks and finds nothing; the line and its Ctrl-C come right then.
        run.editor.enter([])
        #expect(await run.resumed.next() == 1)
        #expect(run.printed.value == "error: interrupted: the line did not run\n")
        run.editor.enter([.endOfInput])
        #expect(await run.ran.value == .succeeded)
    }

    /// Ctrl-C while a line runs (a `:sleep`) interrupts it, and the lines
    /// entered after it, which wait in the editor, do not run either.
    @Test func aCtrlCWhileALineRunsDropsTheLinesEnteredAfterIt() async {
        let hand = SessionClockTests.Hand()
        var run = await PromptRun.asleep(clock: hand.shellClock)
        run.editor.enter([.line(":sleep 5m"), .line(":frobnicate"), .line(":frobnicate")])
        for await moment in hand.armed where moment >= .seconds(300) { break }
        run.interrupter.trigger()
        #expect(await run.resumed.next() == 1)
        #expect(await run.resumed.next() == 2)
        #expect(run.printed.value.hasSuffix("error: interrupted: 2 lines did not run\n"), "\(run.printed.value)")
        #expect(!run.printed.value.contains("frobnicate"), "\(run.printed.value)")
        run.editor.enter([.endOfInput])
        #expect(await run.ran.value == .succeeded)
    }

    /// Lines pasted while the output has no room (an attached shell that
    /// stopped reading) wait for it; Ctrl-C ends the wait, the line waiting
    /// and those after it do not run, and the shell says how many.
    @Test func aCtrlCWhileLinesTypedAheadWaitForRoomDropsThem() async {
        let room = OutputRoomTests.HandRoom()
        room.give()
        var run = await PromptRun.asleep(room: room)
        room.take()
        var waits = room.registrations.makeAsyncIterator()
        run.editor.enter([.line(":timing on"), .line(":timing off"), .line(":history")])
        _ = await waits.next()
        run.interrupter.trigger()
        #expect(await run.resumed.next() == 1)
        #expect(run.printed.value == "error: interrupted: 3 lines did not run (they waited for room in the shell's output)\n")
        room.give()
        #expect(await run.naps.next() == 2)
        // The prompt goes on: the next line runs.
        run.editor.enter([.line(":frobnicate"), .endOfInput])
        #expect(await run.ran.value == .succeeded)
        #expect(run.printed.value.components(separatedBy: "\n").filter { $0.hasPrefix("error: ") }.count == 2, "\(run.printed.value)")
        #expect(run.printed.value.contains(":frobnicate"), "\(run.printed.value)")
    }
}
