import Foundation
import TestSupport
import Testing

/// `export-test`: a session written as a Swift Testing test. The tour's is
/// compiled and run in its own test target (TourExportTests); here, that it
/// is what `karc export-test` writes today, and how the rest behaves.
@Suite(.timeLimit(.minutes(1))) struct ExportTestTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    let scratch = ScratchDirectory("karc-export")

    @Test func theCompiledTourTestIsWhatExportTestWritesToday() async throws {
        let run = try await KarcRun.run(["export-test", repository.appendingPathComponent("scripts/demo/tour.karc").path])
        #expect(run.status == 0, "\(run.stderr)")
        let committed = try String(contentsOf: repository.appendingPathComponent("Tests/TourExportTests/TourTests.swift"), encoding: .utf8)
        // A difference means the demo prints something else now: `make readme` regenerates it.
        #expect(run.stdout == committed)
    }

    @Test func eachCommandIsASendEachReplyEventAndChangeAnAssertionAndEachStateLeftAtTheEnd() async throws {
        let script = scratch.file("session.karc")
        try """
        counter.increment value=2
        counter.oops
        identity.login email=jill@example.com password=s3cret!
        identity.login email=bad password=1
        account.register user-email=jill@example.com user-password=s3cret!

        """.write(toFile: script, atomically: true, encoding: .utf8)
        let output = scratch.file("SessionTests.swift")
        let run = try await KarcRun.run(["export-test", script, "-o", output, "--name", "mySession"])
        #expect(run.status == 0, "\(run.stderr)")
        // Counter, identity, articles and account were asserted where they changed: only auth is left for the end.
        #expect(run.stdout == "wrote \(output): 4 commands, 1 final state\n")
        let test = try String(contentsOfFile: output, encoding: .utf8)
        #expect(
            test.contains(
                "@Test(.timeLimit(.minutes(1))) func mySession() async throws {\n    let store = try await ClusterTestStore { clock in\n        try await DemoCluster.makeForTesting()\n    }\n"
            ))
        // A typo never reached the cluster: it is not in the test.
        #expect(!test.contains("oops"))
        // A plain enum case is Swift; a failed send is expected to throw.
        #expect(test.contains(#"    try await store.send(IdentityAction.login(email: "jill@example.com", password: "s3cret!"), to: "identity")"#))
        #expect(
            test.contains(
                #"    await #expect(throws: (any Error).self) { try await store.send(IdentityAction.login(email: "bad", password: "1"), to: "identity") }"#
            ))
        // A struct with the initializer @Command found is typed Swift: a renamed field breaks the build, not the run.
        #expect(
            test.contains(
                #"    reply = try await store.send(AccountCommands.Register(userEmail: "jill@example.com", userPassword: "s3cret!"), to: "account")"#
            ))
        // Each line is named by its line in the script as it is (no #= lines here to count).
        #expect(
            test.contains(
                "    // session.karc:1: counter.increment value=2\n    try await store.send(CounterStore.Increment(value: 2), to: \"counter\")\n"))
        #expect(test.contains("    // session.karc:5: account.register"))
        // Each change the session printed is asserted where it happened, not only at the end.
        let increment = try #require(test.range(of: "store.send(CounterStore.Increment(value: 2)"))
        let login = try #require(test.range(of: "store.send(IdentityAction.login(email: \"jill@example.com\""))
        #expect(test[increment.upperBound..<login.lowerBound].contains(#"await store.expectState("counter", toBe: CounterStore.State(count: 2))"#))
        #expect(test.contains("@testable import KarcDemo\n"), "a memberwise initializer is internal")
        // States and events are Swift values (their types are @Memberwise), not JSON or dumped text.
        #expect(test.contains(#"    await store.receive(UpdatedAccount(account: Account(email: "jill@example.com")), from: "account")"#))
        #expect(
            test.contains(
                #"    await store.expectState("identity", toBe: IdentityModel.State(user: IdentityModel.User(email: "jill@example.com")))"#))
        #expect(test.contains(#"    await store.expectState("articles", toBe: Articles(items: [], nextID: 1, owner: "jill@example.com"))"#))
        // A reply too, as its type.
        #expect(
            test.contains(
                """
                    expectNoDifference(
                        reply as? Result<Account, AccountError>,
                        Result<Account, AccountError>.success(Account(email: "jill@example.com"))
                    )

                """), "\(test)")
        #expect(!test.contains("customDumping"), "\(test)")
        #expect(!test.contains("decoded("), "\(test)")
        #expect(!test.contains("receive(dumped:"), "\(test)")
        // A final state asserted where it changed is not asserted again at the end.
        #expect(test.components(separatedBy: #"expectState("counter""#).count == 2, "\(test)")
        #expect(test.components(separatedBy: #"expectState("identity""#).count == 2, "\(test)")
        // The component tree's state, with each shown component's store state, is Swift too.
        #expect(
            test.contains(
                """
                    // The other targets' states at the end.
                    await store.expectState(
                        "auth",
                        toBe: ComponentTreeState(
                            paths: ["router": ["logIn"]],
                            stores: ["logIn.form": LogInComponent.Form(email: "", password: "", problem: nil)]
                        )
                    )

                """), "\(test)")
        #expect(test.contains("import Compose\n"), "ComponentTreeState is Compose's")
        #expect(test.hasSuffix("    await store.finish()\n}\n"))
    }

    /// A command that goes on over several lines is commented line by line: the test compiles.
    /// The test's name compiles whatever names it: a keyword (a script
    /// named `for.karc`, `--name class`) in backticks, words camel-cased.
    @Test(arguments: [
        ([] as [String], "func `for`()"), (["--name", "class"], "func `class`()"), (["--name", "my test"], "func myTest()"),
        (["--name", "checkout_works"], "func checkout_works()"),
    ])
    func theTestsNameIsASwiftFunctionsName(_ arguments: [String], _ declared: String) async throws {
        let script = scratch.file("for.karc")
        try "counter.increment\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await KarcRun.run(["export-test", script] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("@Test(.timeLimit(.minutes(1))) \(declared) async throws {\n"), "\(run.stdout)")
    }

    /// A command that fails is not in the test: each is named with its
    /// error (it was left out without a word); the test is written all the
    /// same, as a script may fail on purpose (the tour shows its errors).
    @Test func theCommandsThatFailedAreNamedAsLeftOut() async throws {
        let script = scratch.file("bad.karc")
        try "counter.increment\ncounter.bogus\ncounter.increment value=x\ncounter.increment\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        let run = try await KarcRun.run(["export-test", script, "-o", scratch.file("bad.swift")])
        #expect(run.status == 0)
        #expect(
            run.stderr == """
                note: 2 commands of bad.karc failed and are not in the test (the test replays the others):
                  bad.karc:2:9: error: unknown command 'bogus' for counter. Commands: increment, increment-by-three, reset
                  bad.karc:3:25: error: field 'value' expects Int, got "x"

                """)
    }

    /// A control character in a value is an escape in the test's source, not the raw byte.
    @Test func aControlCharacterInAValueIsAnEscapeInTheSource() async throws {
        let script = scratch.file("nul.karc")
        try "identity.login email=jill@example.com password=s3cret!\narticles.add title=\"a\\u{0}b\"\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        let run = try await KarcRun.run(["export-test", script])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#"Articles.Add(title: "a\0b")"#), "\(run.stdout)")
        #expect(!run.stdout.unicodeScalars.contains { $0.value == 0 })
    }

    @Test func aCommandOverSeveralLinesIsCommentedLineByLine() async throws {
        let script = scratch.file("multiline.karc")
        try "counter.increment {\n  \"value\": 2\n}\n".write(toFile: script, atomically: true, encoding: .utf8)
        let output = scratch.file("MultilineTests.swift")
        let run = try await KarcRun.run(["export-test", script, "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        let test = try String(contentsOfFile: output, encoding: .utf8)
        #expect(test.contains("    // multiline.karc:1: counter.increment {\n    //   \"value\": 2\n    // }\n    try await store.send("), "\(test)")
    }

    @Test func theTestsFactoryAndImportsCanBeNamedAndBadInputIsRefused() async throws {
        let script = scratch.file("one.karc")
        try "counter.increment\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await KarcRun.run(["export-test", script, "--test-factory", "try await makeShop(clock)", "--test-import", "Shop"])
        // The cluster's module is the one named; a command's type brings its own module (here the demo's counter command).
        #expect(
            run.stdout.contains("import CustomDump\nimport KarcDemo\n@testable import Shop\nimport Testing\nimport TrellisTesting\n"), "\(run.stdout)"
        )
        #expect(run.stdout.contains("        try await makeShop(clock)\n"))
        let missing = try await KarcRun.run(["export-test", scratch.file("missing.karc")])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: cannot read the script \(scratch.file("missing.karc")): no such file\n")
        let unwritable = try await KarcRun.run(["export-test", script, "-o", "/nonexistent/dir/T.swift"])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.hasPrefix("error: cannot write /nonexistent/dir/T.swift:"))
        #expect(try await KarcRun.run(["export-test"]).status == 64)
    }

    @Test func exportTestAtThePromptWritesTheSessionSoFar() async throws {
        let output = scratch.file("PromptTests.swift")
        let run = try await KarcRun.run(
            ["--fresh", "--state-dir", scratch.path], input: "counter.increment value=3\n:export-test \(output)\n:export-test\n")
        #expect(run.stdout.hasSuffix("wrote \(output): 1 command, 5 final states\n"), "\(run.stdout)")
        #expect(run.stderr == "<stdin>:3:2: error: :export-test needs one file name (FILE.swift)\n")
        let test = try String(contentsOfFile: output, encoding: .utf8)
        #expect(test.contains("@Test(.timeLimit(.minutes(1))) func promptTests() async throws {"))
        #expect(test.contains(#"try await store.send(CounterStore.Increment(value: 3), to: "counter")"#))
    }

    @Test func aShellOfYourOwnExportsWithTheFactoryItIsGiven() async throws {
        let binary = URL(fileURLWithPath: KarcRun.binaryPath).deletingLastPathComponent().appendingPathComponent("shop-example").path
        let script = scratch.file("cart.karc")
        try "cart.add name=apple quantity=2\ncart.clear\n".write(toFile: script, atomically: true, encoding: .utf8)
        let unnamed = try await KarcRun.run(["export-test", script], binary: binary)
        #expect(unnamed.status == 1)
        #expect(
            unnamed.stderr == "error: export-test needs the test's cluster factory: --test-factory EXPR (a Swift expression of a Trellis Cluster)\n")
        let run = try await KarcRun.run(["export-test", script, "--test-factory", "try await makeShop()", "--test-import", "Shop"], binary: binary)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#"    try await store.send(CartAction.add(name: "apple", quantity: 2), to: "cart")"#))
        #expect(run.stdout.contains("    try await store.send(CartAction.clear, to: \"cart\")"))
        // Cart has no initializer karc can see: decoded from its JSON, and a comment says so where it is first.
        #expect(
            run.stdout.contains(
                ##"    // Cart has no initializer karc can see (mark it @Memberwise): it is decoded from its JSON.\##n    await store.expectState("cart", toBe: try decoded(Cart.self, json: #"{"items":{"apple":2}}"#))\##n"##
            ))
    }

    /// Emitters of a component tree are sent as Swift, as their initializers are written.
    @Test func aComponentTreesEmittersAreSentAsSwift() async throws {
        let script = scratch.file("auth.karc")
        try "auth.open-sign-up\nauth.sign-up.email value=jill@example.com\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await KarcRun.run(["export-test", script])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#"    try await store.send(EmitSignal("openSignUp"), to: "auth")"#), "\(run.stdout)")
        #expect(run.stdout.contains(#"    try await store.send(EmitValue<String>("signUp.email", value: "jill@example.com"), to: "auth")"#))
    }

    /// Each `:assert` is an `#expect` on the state's Swift type, or a comment that says why it cannot be.
    @Test func anAssertIsAnExpectationOfTheTest() async throws {
        let script = scratch.file("asserts.karc")
        try """
        counter.increment value=2
        identity.login email=jill@example.com password=s3cret!
        articles.add title="Hi"
        :assert counter.count == 2
        :assert articles.items.count >= 1
        :assert articles.items[0].title == "Hi"
        :assert identity.user.email == jill@example.com
        :assert identity.user != null
        :assert articles.items[0] == {"id":1,"likes":0,"title":"Hi"}
        :assert articles.owner contains jill

        """.write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await KarcRun.run(["export-test", script])
        #expect(run.status == 0, "\(run.stderr)")
        let test = run.stdout
        let articles = #"try #require(await store.state("articles", as: Articles.self))"#
        let expected = [
            "    // asserts.karc:4: :assert counter.count == 2",
            #"    #expect(try #require(await store.state("counter", as: CounterStore.State.self)).count == 2)"#,
            "    #expect(\(articles).items.count >= 1)",
            "    #expect(\(articles).items[0].title == \"Hi\")",
            // A field through an optional is read with `?.`.
            #"    #expect(try #require(await store.state("identity", as: IdentityModel.State.self)).user?.email == "jill@example.com")"#,
            #"    #expect(try #require(await store.state("identity", as: IdentityModel.State.self)).user != nil)"#,
            // JSON for a struct is the shell's way, not Swift's: said, not dropped.
            "    // asserts.karc:9: :assert articles.items[0] == {\"id\":1,\"likes\":0,\"title\":\"Hi\"}",
            "    // Not expected here: {\"id\":1,\"likes\":0,\"title\":\"Hi\"} is not a plain value of the part's Swift type (Articles.Article).",
            "    #expect(\(articles).owner?.contains(\"jill\") == true)",
        ]
        for line in expected { #expect(test.contains(line + "\n"), "\(line)\n\(test)") }
    }
}
