import Foundation
import KarcAsync
import KarcSession
import KarcSynchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sequences run in a child process: the app's own executable, started as
/// `explore`'s worker (``Shell/exploreWorker(resultFD:settings:cluster:)``).
/// A crash (a trap, `fatalError`, a failed precondition) ends the child, not
/// the explorer, and is a failure with its signal and the child's last
/// output; a child that stops answering altogether is killed after a
/// watchdog and is a timeout. One child runs sequence after sequence, each
/// on a fresh cluster; a new one is started after it crashed or hung.
///
/// ```
/// explorer ── stdin: run | step LINE | quit ──▶ child (its cluster)
///          ◀── fd 3: one line an answer (ExploreWire) ──
///          ◀── stdout + stderr: kept, the last 4 KiB ──
/// ```
package final class ExploreChild: ExploreBackend {
    private struct Running {
        let pid: pid_t
        let input: Int32
        let results: Int32
        let output: Int32
        var pending: [UInt8] = []
        var tail: [UInt8] = []

        /// Closes the explorer's ends of the child's pipes.
        func closePipes() {
            closeDescriptors(input, results, output)
        }
    }

    private let executable: String
    private let arguments: [String]
    private let watchdog: Duration
    private let running = KarcMutex<Running?>(nil)
    private let backtraces = KarcMutex(false)
    /// The child not reaped yet, which Ctrl-C kills: apart from `running`,
    /// which a step holds while it waits. Cleared (under its lock) before
    /// the child is reaped, so a kill never reaches a pid used again.
    private let unreaped = KarcMutex(Unreaped())

    private struct Unreaped {
        var pid: pid_t?
        /// Ctrl-C came: a child started after it (the signal landed while it was spawned) is killed at once.
        var interrupted = false
    }

    /// Children run `executable` with `arguments` (which make it a worker);
    /// one that does not answer within `watchdog` is killed.
    package init(executable: String, arguments: [String], watchdog: Duration) {
        self.executable = executable
        self.arguments = arguments
        self.watchdog = watchdog
        signal(SIGPIPE, SIG_IGN)
    }

    /// How long the explorer looks for an answer before it sleeps until one comes.
    static let spin: Duration = .microseconds(200)

    /// This process's executable: the child is the same program.
    package static var currentExecutable: String {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return CommandLine.arguments.first ?? ""
    }

    package func startRun() async throws(ExploreError) {
        if running.withLock({ $0 == nil }) { try spawn() }
        switch exchange("run") {
        case .answer(.started): return
        case .answer(.cannotStart(let message)): throw ExploreError(message)
        case .answer(.step): throw ExploreError("the worker answered a run with a step's result")
        case .gone(let failure): throw ExploreError("the cluster did not start: \(failure.message)\(Self.quote(failure.output))")
        }
    }

    package func step(_ line: String) async -> ExploreStepResult {
        guard running.withLock({ $0 != nil }) else { return .refused("no cluster") }
        switch exchange("step " + line) {
        case .answer(let answer):
            guard case .step(let step) = answer else { return .refused("the worker answered a step with a run's start") }
            // A command left hanging may hold the child's threads: the next run gets a new child.
            if case .failed(let failure) = step, case .timeout = failure.kind { stop() }
            return step
        case .gone(let failure): return .failed(failure)
        }
    }

    package func setBacktraces(_ on: Bool) async {
        let changed = backtraces.withLock { current -> Bool in
            guard current != on else { return false }
            current = on
            return true
        }
        guard changed else { return }
        // The next child starts with the setting.
        await close()
    }

    package func interrupt() {
        unreaped.withLock { child in
            child.interrupted = true
            if let pid = child.pid { Self.kill(pid) }
        }
    }

    /// Kills the child `pid` and what it started: its process group (its
    /// own, from ``spawn()``), so a crash's `swift-backtrace`, which holds the
    /// child's pipes open, does not keep the explorer waiting for their end.
    private static func kill(_ pid: pid_t) {
        if Foundation.kill(-pid, SIGKILL) != 0 { Foundation.kill(pid, SIGKILL) }
    }

    /// About to reap `pid`: Ctrl-C no longer kills it.
    private func reaping(_ pid: pid_t) {
        unreaped.withLock { if $0.pid == pid { $0.pid = nil } }
    }

    package func close() async {
        guard let child = running.withLock({ $0.take() }) else { return }
        reaping(child.pid)
        _ = "quit\n".withCString { write(child.input, $0, strlen($0)) }
        closeDescriptors(child.input)
        var status: Int32 = 0
        // It ends once its cluster has shut down; one that does not is not waited for.
        for _ in 0..<200 {
            if waitpid(child.pid, &status, WNOHANG) != 0 { break }
            usleep(10_000)
        }
        if waitpid(child.pid, &status, WNOHANG) == 0 {
            Self.kill(child.pid)
            waitpid(child.pid, &status, 0)
        }
        closeDescriptors(child.results, child.output)
    }

    private enum Exchange {
        case answer(ExploreWire.Answer)
        case gone(ExploreFailure)
    }

    /// Sends one request and reads its answer, keeping what the child prints.
    private func exchange(_ request: String) -> Exchange {
        running.withLock { child -> Exchange in
            guard var current = child else { return .gone(ExploreFailure(.exit(status: 0), "no child")) }
            var answered = false
            // A child that ended is forgotten: the next run starts another.
            defer { child = answered ? current : nil }
            let bytes = Array((request + "\n").utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(current.input, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                written += count
            }
            let deadline = ContinuousClock.now + watchdog
            while true {
                if let newline = current.pending.firstIndex(of: 0x0A) {
                    let line = Array(current.pending[..<newline])
                    current.pending.removeFirst(newline + 1)
                    guard let result = ExploreWire.answer(String(decoding: line, as: UTF8.self)) else { continue }
                    answered = true
                    return .answer(result)
                }
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else {
                    Self.kill(current.pid)
                    let failure = ended(&current, killed: true)
                    return .gone(failure)
                }
                var fds = [
                    pollfd(fd: current.results, events: Int16(POLLIN), revents: 0), pollfd(fd: current.output, events: Int16(POLLIN), revents: 0),
                ]
                let milliseconds = Int32(min(ShellDuration.milliseconds(left) + 1, 60_000))
                // The child answers most commands within a few dozen microseconds: looking again for a
                // moment before sleeping saves the wake-up of a thread that slept (a fifth of a command).
                var ready = Int32(0)
                let spinUntil = ContinuousClock.now + Self.spin
                repeat {
                    ready = poll(&fds, 2, 0)
                } while ready == 0 && ContinuousClock.now < spinUntil
                if ready == 0 { ready = poll(&fds, 2, milliseconds) }
                if ready < 0 {
                    if errno == EINTR { continue }
                    return .gone(ended(&current, killed: false))
                }
                if fds[1].revents != 0 { drain(current.output, into: &current.tail, limit: 4096) }
                if fds[0].revents != 0 {
                    let count = readAppending(current.results, to: &current.pending)
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { return .gone(ended(&current, killed: false)) }
                }
            }
        }
    }

    /// The child is gone (or killed): how it ended, with its last output; it is forgotten.
    private func ended(_ child: inout Running, killed: Bool) -> ExploreFailure {
        var status: Int32 = 0
        reaping(child.pid)
        waitpid(child.pid, &status, 0)
        // What it printed last, up to its end.
        var flags = fcntl(child.output, F_GETFL)
        flags |= O_NONBLOCK
        _ = fcntl(child.output, F_SETFL, flags)
        drain(child.output, into: &child.tail, limit: 4096)
        let output = String(decoding: child.tail, as: UTF8.self)
        child.closePipes()
        let signalled = status & 0x7F
        if killed {
            return ExploreFailure(
                .timeout(command: "the process"), "the process stopped answering for \(ShellDuration.describe(watchdog)) and was killed",
                output: output)
        }
        if signalled != 0, signalled != 0x7F {
            let said = Explorer.runtimeMessage(in: output)
            return ExploreFailure(
                .crash(signal: signalled), "the process crashed (\(Signals.name(signalled)))" + (said.map { ": " + $0 } ?? ""), output: output)
        }
        let code = (status >> 8) & 0xFF
        return ExploreFailure(.exit(status: code), "the process exited with status \(code)", output: output)
    }

    private func drain(_ fd: Int32, into tail: inout [UInt8], limit: Int) {
        let chunk = 16_384
        while true {
            let count = readAppending(fd, to: &tail, atMost: chunk)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            if tail.count > limit { tail.removeFirst(tail.count - limit) }
            if count < chunk { return }
        }
    }

    /// Ends the child (it hung a command): the next run starts another.
    private func stop() {
        guard let child = running.withLock({ $0.take() }) else { return }
        reaping(child.pid)
        Self.kill(child.pid)
        var status: Int32 = 0
        waitpid(child.pid, &status, 0)
        child.closePipes()
    }

    private func spawn() throws(ExploreError) {
        var input: [Int32] = [0, 0]
        var results: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&results) == 0, pipe(&output) == 0 else {
            throw ExploreError("cannot start a child: \(String(cString: strerror(errno)))")
        }
        // Only the ends dup'ed to 0, 1, 2 and 3 reach the child (a dup clears the flag).
        for fd in input + results + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, output[1], STDERR_FILENO)
        posix_spawn_file_actions_adddup2(&actions, results[1], 3)
        var pid: pid_t = 0
        let argv = [executable] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        // A crash's backtrace takes the runtime seconds to write, and every replay of a shrink may crash:
        // off, unless the user asked for it (the script replays it with one).
        var environment = ProcessInfo.processInfo.environment
        // Dictionaries and sets in the same order in every child: a replay meets the cluster as the run did.
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        if environment["SWIFT_BACKTRACE"] == nil {
            environment["SWIFT_BACKTRACE"] =
                backtraces.withLock { $0 }
                ? "enable=yes,interactive=no,color=no,threads=crashed,registers=none,images=none,limit=10,top=8" : "enable=no"
        }
        var cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cEnvironment.forEach { free($0) } }
        // A process group of its own: a terminal's Ctrl-C is the explorer's alone, which kills the
        // child itself, so the child's end is never mistaken for a failure before the signal is handled.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, &cArguments, &cEnvironment)
        closeDescriptors(input[0], output[1], results[1])
        guard spawned == 0 else {
            closeDescriptors(input[1], output[0], results[0])
            throw ExploreError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        running.withLock { $0 = Running(pid: pid, input: input[1], results: results[0], output: output[0]) }
        unreaped.withLock { child in
            child.pid = pid
            if child.interrupted { Self.kill(pid) }
        }
    }

    private static func quote(_ output: String) -> String {
        output.isEmpty ? "" : "\n" + output.split(separator: "\n", omittingEmptySubsequences: false).suffix(20).joined(separator: "\n")
    }
}

/// Reads what `fd` has, at most `limit` bytes, onto the end of `bytes`: the
/// count read, 0 at the end of the input, -1 on an error (`errno` says
/// which). The bytes pass through the stack, not a zeroed array a read.
func readAppending(_ fd: Int32, to bytes: inout [UInt8], atMost limit: Int = 65_536) -> Int {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: limit) { buffer in
        let count = read(fd, buffer.baseAddress, limit)
        if count > 0 { bytes.append(contentsOf: buffer[..<count]) }
        return count
    }
}

/// Closes each of `fds` (a free function: inside ``ExploreChild`` `close` is its own).
private func closeDescriptors(_ fds: Int32...) {
    for fd in fds { close(fd) }
}
