import Testing

@testable import KarcScriptTools
@testable import KarcSession
@testable import KarcShell

/// A checked transcript read and rewritten: commands with the output under
/// them, masks, and a line diff as `diff -u` prints it.
@Suite("Transcripts: expected output under each command", .timeLimit(.minutes(1)))
struct TranscriptTests {
    @Test func commandsTakeTheExpectedLinesRightUnderThem() throws {
        let transcript = try KarcShell.Transcript(
            text: """
                # a comment
                counter.increment
                #= state  counter:
                #=
                #=x

                articles.add {"title":
                  "open"}
                #= added

                #= under nothing: not a command's

                """)
        #expect(
            transcript.parts == [
                .text("# a comment"),
                .command(lines: ["counter.increment"], line: 2, expected: ["state  counter:", "", "x"]),
                .text(""),
                .command(lines: [#"articles.add {"title":"#, #"  "open"}"#], line: 7, expected: ["added"]),
                .text(""),
                .text("#= under nothing: not a command's"),
            ])
        #expect(transcript.commands.map(\.text) == ["counter.increment", "articles.add {\"title\":\n  \"open\"}"])
        #expect(transcript.commands.map(\.linesBefore) == [1, 3])
    }

    @Test func rewritingPutsEachOutputUnderItsCommandMaskedAndDropsTheRest() throws {
        let transcript = try KarcShell.Transcript(text: "#mask uuid\na.b\n#= old\n\n#= stray\nc.d\n")
        #expect(transcript.rewritten(with: [["id 123e4567-e89b-12d3-a456-426614174000", ""], []]) == "#mask uuid\na.b\n#= id <uuid>\n#=\n\nc.d\n")
        // A file without a final newline is written back without one.
        #expect(try KarcShell.Transcript(text: "a.b").rewritten(with: [["x"]]) == "a.b\n#= x")
        // An empty file, where a new transcript starts, is checked as it is.
        #expect(try KarcShell.Transcript(text: "").rewritten(with: []) == "")
        #expect(try KarcShell.Transcript(text: "#= stray\n").rewritten(with: []) == "")
    }

    @Test func builtInMasksCoverTheirValues() throws {
        let masks = try ["uuid", "date", "duration"].map { try #require(try TranscriptMask.parse("#mask \($0)", at: 1)) }
        #expect(TranscriptMask.apply(masks, to: "Order(id: 123E4567-E89B-12D3-A456-426614174000)") == "Order(id: <uuid>)")
        #expect(TranscriptMask.apply(masks, to: "Date(2026-11-23T15:39:06.000Z), 2026-11-23 15:39:06+0100") == "Date(<date>), <date>")
        #expect(TranscriptMask.apply(masks, to: "time   0.947 ms, 2s, 1.5 s") == "time   <duration>, <duration>, <duration>")
        #expect(try TranscriptMask.parse("#masked line", at: 1) == nil, "only `#mask` and a space begins a mask")
        #expect(try TranscriptMask.parse("# mask uuid", at: 1) == nil)
    }

    @Test func aBadMaskIsAProblemAtItsLine() {
        #expect(throws: KarcShell.Transcript.Problem(line: 3, message: "the pattern of mask 'n' is not a regular expression: (")) {
            try KarcShell.Transcript(text: "a.b\n\n#mask n (\n")
        }
        #expect(
            throws: KarcShell.Transcript.Problem(
                line: 1,
                message: "a mask needs a name of letters, digits, - and _: #mask NAME (built in: uuid, date, duration, time) or #mask NAME PATTERN"
            )
        ) {
            try KarcShell.Transcript(text: "#mask <n> x\n")
        }
    }

    @Test func aUnifiedDiffNumbersItsHunksAsDiffDoes() {
        let old = (1...12).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var lines = (1...12).map { "line \($0)" }
        lines[1] = "changed 2"
        lines.insert("new after 10", at: 10)
        let new = lines.joined(separator: "\n") + "\n"
        #expect(
            UnifiedDiff.text(old: old, new: new, oldName: "a", newName: "b") == """
                --- a
                +++ b
                @@ -1,5 +1,5 @@
                 line 1
                -line 2
                +changed 2
                 line 3
                 line 4
                 line 5
                @@ -8,5 +8,6 @@
                 line 8
                 line 9
                 line 10
                +new after 10
                 line 11
                 line 12

                """)
        #expect(UnifiedDiff.text(old: old, new: old, oldName: "a", newName: "b") == nil)
        #expect(UnifiedDiff.text(old: "", new: "x\n", oldName: "a", newName: "b") == "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n")
        #expect(UnifiedDiff.text(old: "a\nb\n", new: "a\n", oldName: "a", newName: "b") == "--- a\n+++ b\n@@ -1,2 +1,1 @@\n a\n-b\n")
    }
}
