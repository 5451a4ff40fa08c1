import Foundation
import KarcSynchronization
import Synchronization

@testable import KarcSession
@testable import KarcShell

#if canImport(Glibc)
import Glibc
import KarcAsync
import TestSupport
#endif

/// Runs a program to completion with `posix_spawn` and `waitpid`, on a thread
/// of its own, and hands back its exit status and output.
///
/// Why not `Foundation.Process`: on Linux it learns that a child exited when a
/// socket it leaked into the child closes (swift-corelibs-foundation #4795).
/// `tmux new-session` forks the tmux server, which inherits that socket and
/// lives on, so `waitUntilExit()` never returned and CI hung for 90 minutes.
/// `waitpid` cannot be fooled that way. And blocking here, not on the test's
/// own task, keeps the two threads of the cooperative pool free for the other
/// tests running in parallel.
enum ChildProcess {
    struct Output: Sendable {
        /// The exit code, or 128 + the signal number when a signal ended it (as a shell reports it).
        let status: Int32
        let stdout: Data
        let stderr: Data
    }

    struct SpawnError: Error, CustomStringConvertible {
        let program: String
        let code: Int32
        var description: String { "cannot start \(program): \(String(cString: strerror(code)))" }
    }

    /// Runs `arguments[0]` (looked up in PATH unless it has a slash) with the
    /// rest as its arguments; `input` is written to its standard input, then
    /// closed. With `capture` false its output goes to /dev/null.
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, input: String = "", capture: Bool = true
    ) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try runBlocking(arguments, environment, input, capture) })
            }.start()
        }
    }

    private static func runBlocking(
        _ arguments: [String], _ environment: [String: String]?, _ input: String, _ capture: Bool
    ) throws -> Output {
        // A child that exits without reading its input must not kill the test run with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        // Spawned from this thread, which lives until the child ends: the child dies with the test process.
        let (pid, stdin, stdout, stderr) = try spawning.withLock { _ in
            try spawn(diesWithParent(arguments), environment, capture)
        }

        // Feed and drain at once: a big input or output must not fill a pipe and stall both sides.
        let feeding = Thread {
            OutputSink.writeAll(Array(input.utf8), to: stdin.write)
            close(stdin.write)
        }
        feeding.start()
        let errors = Drained()
        let draining = Thread { errors.finish(readAll(stderr.read)) }
        draining.start()
        let out = readAll(stdout.read)
        let err = errors.wait()
        close(stdout.read)
        close(stderr.read)

        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // The <sys/wait.h> macros are not imported into Swift: low 7 bits = signal, next byte = exit code.
        let signal = status & 0x7f
        return Output(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, stdout: out, stderr: err)
    }

    /// Starts `arguments[0]` and returns at once: a server a test talks to,
    /// stopped with ``Running/stop(signal:)``. Its output is read as it comes.
    /// It dies with the test process, also when that crashes (``diesWithParent(_:)``).
    /// With `keepsInput`, its standard input stays open for ``Running/write(_:)`` (a piped script that goes on).
    static func start(_ arguments: [String], environment: [String: String]? = nil, keepsInput: Bool = false) throws -> Running {
        signal(SIGPIPE, SIG_IGN)
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let (pid, stdin, stdout, stderr) = try SpawnThread.shared.run {
            try spawning.withLock { _ in try spawn(diesWithParent(arguments), environment, true) }
        }
        if !keepsInput { close(stdin.write) }
        return Running(pid: pid, stdin: keepsInput ? stdin.write : nil, stdout: stdout.read, stderr: stderr.read)
    }

    /// `arguments` run so that the kernel kills the program (SIGKILL) when the
    /// thread that spawned it ends, which for ``start(_:environment:)`` is
    /// when the test process ends, however it ends: a crashed test run
    /// leaves no `karc serve` behind (util-linux's setpriv sets the
    /// parent-death signal, then runs the program; a fork of it, like a
    /// server tmux starts, does not inherit it).
    static func diesWithParent(_ arguments: [String]) -> [String] {
        ["setpriv", "--pdeathsig", "KILL", "--"] + arguments
    }

    /// A child that runs while the test goes on.
    final class Running: Sendable {
        let pid: pid_t
        private let output = KarcMutex((stdout: Data(), stderr: Data()))
        /// Called at each chunk read and at each stream's end, so a test awaits output instead of polling for it.
        private let changes = Changes()
        private let closedStreams = KarcMutex(0)
        /// Left by each reader at its stream's end.
        private let readers = DispatchGroup()

        /// Its standard input, while it is open (``start(_:environment:keepsInput:)``).
        private let input: KarcMutex<Int32?>

        fileprivate init(pid: pid_t, stdin: Int32?, stdout: Int32, stderr: Int32) {
            self.pid = pid
            input = KarcMutex(stdin)
            read(stdout, isError: false)
            read(stderr, isError: true)
        }

        /// Writes `text` to its standard input, whole.
        func write(_ text: String) {
            input.withLock { fd in
                guard let fd else { return }
                var bytes = Array(text.utf8)[...]
                while !bytes.isEmpty {
                    let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                    guard written > 0 else { return }
                    bytes = bytes.dropFirst(written)
                }
            }
        }

        /// Ends its standard input.
        func closeInput() {
            input.withLock { fd in
                if let open = fd { close(open) }
                fd = nil
            }
        }

        private func read(_ fd: Int32, isError: Bool) {
            readers.enter()
            Thread { [self] in
                defer { readers.leave() }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    output.withLock { isError ? $0.stderr.append(contentsOf: buffer[..<count]) : $0.stdout.append(contentsOf: buffer[..<count]) }
                    changes.changed()
                }
                close(fd)
                closedStreams.withLock { $0 += 1 }
                changes.changed()
            }.start()
        }

        /// Waits until `condition` holds of this child, woken by each chunk it prints
        /// (no polling; a hang is the test's time limit, named).
        func until(_ condition: (Running) -> Bool) async -> Bool {
            await changes.until { condition(self) }
        }

        /// Both its output streams are closed: it has ended (or closed them), and prints nothing more.
        var outputEnded: Bool { closedStreams.withLock { $0 == 2 } }

        /// What it printed so far.
        var stdout: String { output.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
        var stderr: String { output.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

        /// How a child ended: by `exit(code)`, or killed by a signal's default action.
        enum Ending: Equatable, CustomStringConvertible {
            case exited(Int32)
            case killed(by: Int32)

            var description: String {
                switch self {
                case .exited(let code): "exited with \(code)"
                case .killed(let signal): "killed by signal \(signal)"
                }
            }
        }

        /// Sends `signal` and returns at once.
        func send(_ signal: Int32) {
            kill(pid, signal)
        }

        /// Waits for the child to end, and for all it printed to be read.
        func ending() async -> Ending {
            await withCheckedContinuation { continuation in
                Thread { [pid, readers] in
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    readers.wait()
                    let signal = status & 0x7f
                    continuation.resume(returning: signal == 0 ? .exited((status >> 8) & 0xff) : .killed(by: signal))
                }.start()
            }
        }

        /// Sends `signal` and waits for the child to end; its exit status (128 + the signal when the signal ended it).
        func stop(signal: Int32 = SIGTERM) async -> Int32 {
            closeInput()
            kill(pid, signal)
            return await withCheckedContinuation { continuation in
                Thread { [pid, readers] in
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    readers.wait()  // all it printed is read
                    let signal = status & 0x7f
                    continuation.resume(returning: signal == 0 ? (status >> 8) & 0xff : 128 + signal)
                }.start()
            }
        }
    }

    /// Held while pipes are made and a child is spawned (see `Channel.pipe`).
    private static let spawning = KarcMutex(())

    /// Starts the child; returns it with the parent's ends of its three streams.
    private static func spawn(
        _ arguments: [String], _ environment: [String], _ capture: Bool
    ) throws -> (pid_t, stdin: Channel, stdout: Channel, stderr: Channel) {
        let stdin = try Channel.pipe()
        let stdout = try capture ? Channel.pipe() : Channel.null()
        let stderr = try capture ? Channel.pipe() : Channel.null()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on 0, 1 and 2 only: the child inherits nothing else of ours.
        posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)
        // A child starts with no signal blocked, whatever the spawning thread blocks (a thread
        // may block SIGTERM; a server that inherited that would never stop when asked).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid = pid_t()
        let code = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp) }
        }
        // The child has its own copies now.
        close(stdin.read)
        close(stdout.write)
        close(stderr.write)
        guard code == 0 else {
            close(stdin.write)
            close(stdout.read)
            close(stderr.read)
            throw SpawnError(program: arguments[0], code: code)
        }
        return (pid, stdin, stdout, stderr)
    }

    /// One standard stream of the child: a close-on-exec pipe, or /dev/null at both ends.
    private struct Channel {
        let read: Int32
        let write: Int32

        /// Call with `spawning` held: Glibc's Swift module has no pipe2, and a child
        /// spawned between pipe() and fcntl() would keep this pipe open, so nothing
        /// reading it would ever see its end.
        static func pipe() throws -> Channel {
            var fds: [Int32] = [0, 0]
            guard Glibc.pipe(&fds) == 0 else { throw SpawnError(program: "a pipe", code: errno) }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return Channel(read: fds[0], write: fds[1])
        }

        static func null() throws -> Channel {
            let read = open("/dev/null", O_RDONLY | O_CLOEXEC)
            let write = open("/dev/null", O_WRONLY | O_CLOEXEC)
            guard read >= 0, write >= 0 else { throw SpawnError(program: "/dev/null", code: errno) }
            return Channel(read: read, write: write)
        }
    }

    private static func readAll(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[..<count])
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return data
        }
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}

/// Standard error, read to its end on another thread.
private final class Drained: Sendable {
    private let data = KarcMutex(Data())
    private let done = DispatchSemaphore(value: 0)

    func finish(_ value: Data) {
        data.withLock { $0 = value }
        done.signal()
    }

    func wait() -> Data {
        done.wait()
        return data.withLock { $0 }
    }
}
