import Foundation
import TestSupport
import Testing

/// A program a test starts dies with the process that started it, however
/// that one ends: a crashed test run leaves no `karc serve` ticking.
@Suite(.timeLimit(.minutes(1)))
struct ChildProcessTests {
    @Test func aChildDiesWhenItsParentIsKilled() async throws {
        // A parent (a shell standing in for the test process) starts a child
        // as ChildProcess does, says its pid, and is killed as a crash would.
        let parent = try ChildProcess.start(
            ["/bin/sh", "-c", #""$@" & echo "$!"; wait"#, "sh"] + ChildProcess.diesWithParent(["sleep", "600"]))
        #expect(await parent.until { $0.stdout.hasSuffix("\n") || $0.outputEnded }, "\(parent.stderr)")
        let child = try #require(pid_t(parent.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(parent.stdout)")
        // Once it runs the program: the signal is set just before (a parent that dies between its
        // fork and that moment is not noticed; a test run does not crash within microseconds of a spawn).
        // Polls: /proc is the only word of another process's exec.
        #expect(await eventually { (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) == "sleep\n" })

        parent.send(SIGKILL)
        #expect(await parent.ending() == .killed(by: SIGKILL))
        // Polls: /proc is the only word of an orphan's end.
        #expect(await eventually { !Self.isRunning(child) }, "the child outlived its parent")
    }

    @Test func aServerIsTheProgramItself() async throws {
        // The parent-death signal is set by a program that then becomes the server:
        // the pid a test signals is the server's own.
        let server = try ChildProcess.start(["sleep", "600"])
        let pid = server.pid
        // Polls: /proc is the only word of another process's exec.
        #expect(await eventually { (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "sleep\n" })
        #expect(await server.stop() == 128 + SIGTERM)
    }

    /// Alive: neither gone nor a zombie waiting to be reaped (where PID 1 does not reap, one stays).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return false }
        return state != "Z" && state != "X"
    }
}
