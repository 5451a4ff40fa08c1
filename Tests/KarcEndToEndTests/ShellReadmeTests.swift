import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct ShellReadmeTests {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    var readme: String {
        get throws {
            try String(contentsOf: here.appendingPathComponent("../../README.md").standardized, encoding: .utf8)
        }
    }

    /// Runs README's `shop-example` (built next to `karc`).
    func shop(_ arguments: [String], input: String = "") async throws -> KarcRun {
        let binary = URL(fileURLWithPath: KarcRun.binaryPath).deletingLastPathComponent().appendingPathComponent("shop-example").path
        return try await KarcRun.run(arguments, input: input, binary: binary)
    }

    /// An app's own shell names the app's commands and its own program where
    /// it tells the user what to type or run: not the demo's `counter.increment` or `karc`.
    @Test func anAppsShellNamesItsOwnCommandsAndProgram() async throws {
        let typo = try await shop(["-e", "cart"])
        #expect(typo.stderr == "-e:1:1: error: expected TARGET.COMMAND (like cart.add), got 'cart'; :help lists the targets\n")
        let scratch = ScratchDirectory("karc-shop-save")
        let saved = scratch.file("saved.karc")
        let save = try await shop(["-e", "cart.add name=apple", "-e", ":save \(saved)"])
        #expect(save.status == 0, "\(save.stderr)")
        #expect(try String(contentsOfFile: saved, encoding: .utf8).contains("against shop; run it with: shop-example FILE\n"))
        let explore = try await shop(["explore", "--seed", "1", "--runs", "10", "--out", scratch.path])
        #expect(explore.stdout.contains(": replay it with `shop-example \(scratch.path)/"), "\(explore.stdout)")
        #expect(explore.stdout.contains("repeat with `shop-example explore --seed 1"), "\(explore.stdout)")
    }

    /// A key with a space or a quote (an item's name) is one path, in every
    /// meta command that takes one, as Tab completion writes it.
    @Test func aPathToAKeyWithASpaceOrAQuoteIsOneArgument() async throws {
        let run = try await shop([
            "-e", #"cart.add name="a b""#, "-e", #"cart.add name="x\"y""#, "-e", #":state cart items["a b"]"#, "-e", #":state cart items["x\"y"]"#,
            "-e", #":watch cart.items["a b"]"#, "-e", #":assert cart.items["a b"] == 1"#, "-e", #":blame cart.items["x\"y"]"#,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#"state  cart items["a b"]: 1"#), "\(run.stdout)")
        #expect(run.stdout.contains(#"state  cart items["x\"y"]: 1"#), "\(run.stdout)")
        #expect(run.stdout.contains(#"ok: cart.items["a b"] == 1"#), "\(run.stdout)")
        #expect(run.stdout.contains(#"blame  cart.items["x\"y"]: 1 change"#), "\(run.stdout)")
    }

    @Test func theThreeLineShellRunsAUsersClusterWithKarcsFlags() async throws {
        let run = try await shop(["-e", "cart.add name=apple", "-e", "cart.add name=pear quantity=2", "-e", ":state cart"])
        #expect(run.status == 0)
        #expect(
            run.stdout.hasSuffix(
                "state  cart: Cart(\n               items: [\n                 \"apple\": 1,\n                 \"pear\": 2\n               ]\n             )\n"
            ), "\(run.stdout)")
        let missing = try await shop(["-e", "cart.add"])
        #expect(missing.status == 1, "a missing field fails the run")
        #expect(missing.stderr == "-e:1:6: error: cart.add: missing required field name=String\n")
        let json = try await shop(["--json", "--echo", "--keep-going"], input: "cart.add name=fig\ncart.bogus\ncart.clear\n")
        #expect(json.status == 1)
        #expect(json.jsonLines.map { $0["kind"] as? String } == ["state", "done", "error", "done", "state", "done"])
    }

    @Test func theThreeLineShellHasHelpAVersionAndCompletionScripts() async throws {
        let help = try await shop(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: shop "))
        for flag in [
            "-e <CMD>", "--json", "--json-states", "--echo", "--keep-going", "--timeout <DURATION>", "--no-color", "--history-file <PATH>", "--quiet",
            "--no-diff",
        ] {
            #expect(help.stdout.contains("  \(flag)"), "shop --help lacks \(flag)")
        }
        #expect(help.stdout.contains("SUBCOMMANDS:\n  shell (default)  "), "a user's shell lists its subcommands too")
        #expect(help.stdout.contains("\n  check  ") && help.stdout.contains("\n  explore  "))
        // Its exit statuses, once: the same paragraph as karc's, bad arguments' 64 with them.
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.components(separatedBy: "Exit status: ").count == 2, "\(help.stdout)")
        #expect(words.contains("1 otherwise; 64 for bad command-line arguments; 130, 143 or 129 when SIGINT, SIGTERM or SIGHUP ended a script."))
        #expect(try await shop(["--generate-completion-script", "bash"]).stdout.contains("_shop()"))
        let bad = try await shop(["--timeout", "soon"])
        #expect(bad.status == 64)
        #expect(
            try await shop(["-e", ":help cart.add"]).stdout
                == "cart.add name=String [quantity=Int, default 1]\n  Puts something in the cart.\n  name  String  required\n  quantity  Int  optional, default 1\n"
        )
    }

    @Test func theThreeLineShellChecksTranscripts() async throws {
        let scratch = ScratchDirectory("karc-shop-check")
        let path = scratch.file("cart.karc")
        try "cart.add name=apple quantity=2\ncart.add\n".write(toFile: path, atomically: true, encoding: .utf8)
        let update = try await shop(["check", "--update", path])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(
            try String(contentsOfFile: path, encoding: .utf8).contains(
                """
                cart.add
                #= cart.karc:9:6: error: cart.add: missing required field name=String
                """))
        #expect(try await shop(["check", path]).stdout == "ok      \(path)\n1 transcript: 1 passed\n")
        #expect(try await shop(["check", "--help"]).stdout.contains("USAGE: shop check "))
    }

    @Test func theReadmeShowsExactlyTheExampleThatIsTested() async throws {
        let source = try String(contentsOf: here.appendingPathComponent("../../Examples/Shop/main.swift").standardized, encoding: .utf8)
        let begin = try #require(source.range(of: "// README-SHOP-BEGIN\n"))
        let end = try #require(source.range(of: "// README-SHOP-END"))
        let example = String(source[begin.upperBound..<end.lowerBound])
        #expect(try readme.contains("```swift\n" + example + "```"), "README.md's shell example differs from Examples/Shop/main.swift")
    }
}
