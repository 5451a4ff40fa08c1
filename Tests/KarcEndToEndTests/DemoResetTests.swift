import Foundation
import Testing

/// `:reset` on the demo through the real binary: every target resets, so a
/// reset after a login signs out, and the next add is turned away, as it
/// would be in any run of the app.
@Suite(.timeLimit(.minutes(1))) struct DemoResetTests {
    @Test func aResetAfterALoginSignsOutAndSaysWhatItChanged() async throws {
        let script = [
            "identity.login email=jill@example.com password=s3cret!", "articles.add title=Mine", ":reset", "articles.add title=Orphan",
            ":state identity", ":assert articles.items.count == 0",
        ]
        let run = try await KarcRun.run(["--fresh", "--tick", "200ms", "--no-color"], input: script.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        let reset = try #require(run.stdout.range(of: "reset  changed "), "\(run.stdout)")
        let before = run.stdout[..<reset.lowerBound]
        let told = try #require(before.range(of: "Mine"), "the add printed its diff").upperBound
        // Identity's change is printed with the others, and named in the reset's line.
        #expect(before[told...].contains("state  identity:\n"), "\(run.stdout)")
        #expect(before[told...].contains(#"-   user: IdentityModel.User(email: "jill@example.com")"#), "\(run.stdout)")
        let line = run.stdout[reset.lowerBound...].prefix { $0 != "\n" }
        #expect(line.contains("identity") && line.contains("articles"), "\(line)")
        #expect(run.stdout.contains(#"redirected  Articles.Add(title: "Orphan") by Gatekeeper"#), "signed out: the add is turned away")
        #expect(run.stdout.contains("state  identity: IdentityModel.State(user: nil)"))
    }
}
