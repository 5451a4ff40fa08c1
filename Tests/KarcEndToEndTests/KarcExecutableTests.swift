import Foundation
import TestSupport
import Testing

/// Runs the real `karc` binary, built next to this test bundle by `swift build --build-tests`.
struct KarcRun {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Standard output's lines parsed as JSON objects.
    var jsonLines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Standard error without the "has not answered" notes of commands other than `command`: on a loaded
    /// machine any command may outlast a short `--timeout`, and a test about one slow command should not
    /// fail because another was slow too.
    func stderr(notingOnly command: String) -> String {
        stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !($0.contains(": note: ") && $0.contains(" has not answered after ") && !$0.contains(": note: \(command) ")) }
            .joined(separator: "\n")
    }

    /// The `karc` binary built next to this test bundle.
    static var binaryPath: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("karc").path
    }

    /// Runs `karc arguments…` with `input` piped to its standard input.
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:], binary: String = binaryPath) async throws
        -> KarcRun
    {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw MissingBinary(path: binary)
        }
        var env = ProcessInfo.processInfo.environment
        // Nothing a test run persists reaches the user's own data.
        let scratch = NSTemporaryDirectory() + "karc-run-\(UUID().uuidString)"
        env["XDG_DATA_HOME"] = scratch + "/data"
        env["XDG_STATE_HOME"] = scratch + "/state"
        env["XDG_CONFIG_HOME"] = scratch + "/config"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        env.merge(environment) { $1 }
        let output = try await ChildProcess.run([binary] + arguments, environment: env, input: input)
        return KarcRun(
            status: output.status,
            stdout: String(decoding: output.stdout, as: UTF8.self),
            stderr: String(decoding: output.stderr, as: UTF8.self)
        )
    }
}

struct MissingBinary: Error, CustomStringConvertible {
    let path: String
    var description: String { "no karc binary at \(path); build it first (`make test` runs `swift build --build-tests`)" }
}

@Suite(.timeLimit(.minutes(1))) struct KarcExecutableTests {
    @Test func helpAndVersion() async throws {
        let help = try await KarcRun.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: karc [<options>] [<file>]"))
        for flag in [
            "-e <CMD>", "--json", "--echo", "--keep-going", "--timeout <DURATION>", "--no-color", "--history-file <PATH>", "--quiet", "--no-diff",
            "--tick <DURATION>", "--state-dir <PATH>", "--fresh",
        ] {
            #expect(help.stdout.contains("  \(flag)"), "karc --help lacks \(flag)")
        }
        // The shell's flags in groups, each flag in its own; the app's own flags under OPTIONS.
        let sections = help.stdout.components(separatedBy: "\n\n")
        func section(_ title: String) -> String { sections.first { $0.hasPrefix(title) } ?? "" }
        #expect(section("OUTPUT:").contains("--json-states"))
        #expect(section("HISTORY:").contains("--history-limit <N>"))
        #expect(section("EXPORTED TESTS:").contains("--test-factory <EXPR>"))
        #expect(section("OPTIONS:").contains("--tick <DURATION>"))
        #expect(!help.stdout.contains("(default 10000). (default: 10000)"))
        // Every subcommand, the shell's and the demo's, with what it does; how to learn more.
        let subcommands = section("SUBCOMMANDS:")
        #expect(subcommands.hasPrefix("SUBCOMMANDS:\n  shell (default)  "), "\(subcommands)")
        for name in ["check", "export-test", "export-diagram", "explore", "serve", "attach"] {
            #expect(subcommands.contains("\n  \(name)  "), "\(subcommands)")
        }
        #expect(help.stdout.hasSuffix("\n\n  See 'karc help <subcommand>' for detailed help.\n"))
        // `karc shell --help` is the same shell, named.
        #expect(try await KarcRun.run(["shell", "--help"]).stdout.contains("USAGE: karc [<options>] [<file>]"))
        // Every demo target is described.
        for target in ["counter (", "identity (", "articles (", "account (", "auth ("] {
            #expect(help.stdout.replacingOccurrences(of: "\n", with: " ").contains(target), "karc --help does not describe \(target)")
        }
        // The exit statuses, as every ShellApp lists them, after the demo's own discussion.
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            words.contains(
                "Exit status: 0 when every command succeeded, 1 otherwise; 64 for bad command-line arguments; 130, 143 or 129 when SIGINT, SIGTERM or SIGHUP ended a script."
            ), "\(help.stdout)")
        let version = try await KarcRun.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "karc 0.3.0\n")
    }

    /// Each subcommand's help lists the statuses it exits with, and a bad argument is the 64 it says.
    @Test(arguments: [
        ("explore", "64 for bad command-line arguments; 130, 143 or 129 after Ctrl-C (SIGINT), SIGTERM or SIGHUP"),
        ("attach", "64 for bad command-line arguments; 130, 143 or 129 when SIGINT, SIGTERM or SIGHUP ended a script"),
    ])
    func eachSubcommandsHelpSaysItsExitStatuses(subcommand: String, statuses: String) async throws {
        let help = try await KarcRun.run([subcommand, "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains(statuses), "\(help.stdout)")
        let bad = try await KarcRun.run([subcommand, "--frobnicate"])
        #expect(bad.status == 64, "\(bad.stderr)")
    }

    @Test func anUnknownArgumentIsRefusedWithWhatIsAccepted() async throws {
        let run = try await KarcRun.run(["--frobnicate"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("Unknown option '--frobnicate'"))
        #expect(run.stderr.contains("Usage: karc"))
    }

    @Test func aBadTimeoutIsRefused() async throws {
        let run = try await KarcRun.run(["--timeout", "soon", "-e", ":quit"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--timeout"))
    }

    @Test func completionScriptsComeFromTheArgumentParser() async throws {
        let run = try await KarcRun.run(["--generate-completion-script", "bash"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("_karc"))
    }
}
