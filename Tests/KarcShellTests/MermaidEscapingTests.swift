import Foundation
import KarcShell
import Testing

@testable import KarcSession
@testable import KarcTrace

/// What `:export-diagram` writes is read by Mermaid as the text it was:
/// HTML in a message (`<b>x</b>`, a generic type's `Foo<Bar>`) shows as
/// written, not as markup, and a `#` or `;` is no entity nor statement end.
@Suite(.timeLimit(.minutes(1)))
struct MermaidEscapingTests {
    /// A message as Mermaid shows it: its entity codes (`#` a name or a
    /// decimal number `;`, as its docs' "Entity codes to escape characters"
    /// say) turned back into characters; nil when the text holds what
    /// Mermaid would read otherwise (HTML, a bare `#` or `;`, a line break).
    static func shown(_ message: String) -> String? {
        let named: [String: Character] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "nbsp": "\u{A0}"]
        var out = ""
        var rest = Substring(message)
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            // A `"` is text outside a tag, and no tag is left.
            case "<", ">", "&", ";", "\n", "\r": return nil
            case "#":
                guard let end = rest.firstIndex(of: ";") else { return nil }
                let code = String(rest[..<end])
                if let number = UInt32(code), let scalar = Unicode.Scalar(number) {
                    out.unicodeScalars.append(scalar)
                } else if let character = named[code] {
                    out.append(character)
                } else {
                    return nil
                }
                rest = rest[rest.index(after: end)...]
            default: out.append(character)
            }
        }
        return out
    }

    @Test(arguments: [
        "<b>x</b>", "Foo<Bar>", "Result<[Int], any Error>", "a & b", "say \"hi\"", "#1; #2", "x -> y >> z", "&lt; is not <", "#lt; stays as typed",
    ])
    func aMessageShowsAsWritten(_ text: String) {
        let escaped = SequenceDiagram.escaped(text)
        #expect(Self.shown(escaped) == text, "\(escaped)")
    }

    @Test func theExportedDiagramShowsAnItemWithHTMLAsTyped() async throws {
        let shop = try await TraceTests.shop()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karc-mermaid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("flow.md").path
        var options = ShellOptions()
        options.printing.color = false
        options.printing.quiet = true
        let run = try await Transcript.run(shop, [#"orders.place item="<b>Box<Pen></b>" quantity=9"#, ":export-diagram \(file)"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let failure = try #require(lines.first { $0.contains("--x") })
        let message = try #require(failure.split(separator: ": ", maxSplits: 1).last)
        #expect(Self.shown(String(message)) == "failed: out of stock: <b>Box<Pen></b>", "\(failure)")
        await shop.shutDown()
    }
}
