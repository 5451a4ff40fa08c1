import Foundation
import KarcShell
import KarcShellTrellis
import TestSupport
import Testing
import Trellis

/// A snapshot file that cannot be read says what is wrong in a user's
/// words: the state path as the shell writes it, what the type expects and
/// what the file has, or where the JSON breaks and what was open there.
@Suite(.timeLimit(.minutes(1)))
struct SnapshotFileErrorTests {
    let scratch = ScratchDirectory("karc-snapshot-errors")

    struct Counter: Equatable, Sendable, Codable {
        var count = 0
    }
    struct Article: Equatable, Sendable, Codable {
        var id: Int
        var title: String
        var likes = 0
    }
    struct Articles: Equatable, Sendable, Codable {
        var items: [Article] = []
        var tags: [String: Int] = [:]
    }
    struct Bump: Action, Codable {}

    static func cluster() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Counter.self).mutate(on: Bump.self) { counter, _, _ in counter.count += 1 }.with(model: Counter()).named("counter")
            Store(model: Articles.self).mutate(on: Bump.self) { _, _, _ in }.with(model: Articles()).named("articles")
        }
        return ClusterShell(name: "blog", cluster: cluster)
    }

    static let header = #"{"karc-snapshot":1,"cluster":"blog","name":"x","saved":"2026-11-26T10:00:00.000Z","left":[],"states":"#
    static let article = #"{"id":1,"title":"A","likes":2}"#

    /// The error `:snapshot load` gives for a file holding `text`, with nothing kept.
    func loadError(_ text: String) async throws -> String {
        let file = scratch.file("s.json")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        var options = ShellOptions()
        options.printing.color = false
        options.printing.quiet = true
        options.keepGoing = true
        let run = try await Transcript.run(try await Self.cluster(), [":snapshot load \(file)", ":snapshots"], options: options)
        #expect(run.output == "no snapshots (:snapshot NAME keeps one)\n", "nothing was kept")
        let prefix = "<test>:1:16: error: \(file) "
        let error = try #require(run.errors.split(separator: "\n").first { $0.hasPrefix(prefix) }, "\(run.errors)")
        return String(error.dropFirst(prefix.count))
    }

    func misfit(_ states: String, _ type: String) async throws -> String? {
        let error = try await loadError(Self.header + states + "}")
        let head = "does not fit \(type) now: "
        guard error.hasPrefix(head), error.hasSuffix("; nothing was read") else { return error }
        return String(error.dropFirst(head.count).dropLast("; nothing was read".count))
    }

    static let counterType = "the state of counter (KarcShellTests.SnapshotFileErrorTests.Counter)"
    static let articlesType = "the state of articles (KarcShellTests.SnapshotFileErrorTests.Articles)"

    @Test func aNumberTooLargeForItsFieldSaysWhichAndWhy() async throws {
        #expect(
            try await misfit(#"{"counter":{"count":9223372036854775808}}"#, Self.counterType)
                == "counter.count: 9223372036854775808 does not fit in Int")
        #expect(
            try await misfit(#"{"counter":{"count":-9223372036854775809}}"#, Self.counterType)
                == "counter.count: -9223372036854775809 does not fit in Int")
    }

    @Test func aFractionForAWholeNumberSaysSo() async throws {
        #expect(try await misfit(#"{"counter":{"count":1.5}}"#, Self.counterType) == "counter.count: expected Int, found a fraction (1.5)")
    }

    @Test func aFieldWhoseTypeChangedSaysWhatItExpectsAndWhatItFound() async throws {
        let likes = #"{"articles":{"items":[{"id":1,"title":"A","likes":"many"}],"tags":{}}}"#
        #expect(try await misfit(likes, Self.articlesType) == "articles.items[0].likes: expected Int, found a string")
        let null = #"{"articles":{"items":[{"id":1,"title":"A","likes":null}],"tags":{}}}"#
        #expect(try await misfit(null, Self.articlesType) == "articles.items[0].likes: expected Int, found null")
        let title = #"{"articles":{"items":[{"id":1,"title":7,"likes":0}],"tags":{}}}"#
        #expect(try await misfit(title, Self.articlesType) == "articles.items[0].title: expected String, found a number (7)")
        let items = #"{"articles":{"items":{"id":1},"tags":{}}}"#
        #expect(try await misfit(items, Self.articlesType) == "articles.items: expected a list, found an object")
        let article = #"{"articles":{"items":["A"],"tags":{}}}"#
        #expect(
            try await misfit(article, Self.articlesType)
                == "articles.items[0]: expected an object (KarcShellTests.SnapshotFileErrorTests.Article), found a string")
        let tag = #"{"articles":{"items":[],"tags":{"env":"prod"}}}"#
        #expect(try await misfit(tag, Self.articlesType) == #"articles.tags["env"]: expected Int, found a string"#)
    }

    @Test func aFileCutShortSaysWhereItEndsAndWhatWasOpen() async throws {
        let whole = Self.header + #"{"articles":{"items":[{"id":1,"title":"A","likes":2}],"tags":{}}}}"#
        let cut = String(whole[..<(try #require(whole.range(of: #"[{"id":1,"#))).upperBound])
        #expect(
            try await loadError(cut) == "is not valid JSON: it ends at byte \(cut.utf8.count), inside an object (articles.items[0]); nothing was read"
        )
        let inString = Self.header + #"{"articles":{"items":[{"id":1,"title":"A lo"#
        #expect(
            try await loadError(inString)
                == "is not valid JSON: it ends at byte \(inString.utf8.count), inside a string (articles.items[0].title); nothing was read")
        #expect(try await loadError("{") == "is not valid JSON: it ends at byte 1, inside an object; nothing was read")
    }

    @Test func aSyntaxErrorSaysItsByteWhatWasExpectedAndWhatWasFound() async throws {
        let typo = Self.header + #"{"counter":{"count":tru}}}"#
        let at = typo.utf8.count - 5
        #expect(
            try await loadError(typo)
                == "is not valid JSON: at byte \(at), inside an object (counter.count): expected a value, found 't'; nothing was read")
        let missingComma = Self.header + #"{"counter":{"count":1 "more":2}}}"#
        #expect(
            try await loadError(missingComma)
                == "is not valid JSON: at byte \(missingComma.utf8.count - 10), inside an object (counter): expected ',' or '}', found '\"'; nothing was read"
        )
        let huge = Self.header + #"{"counter":{"count":1e400}}}"#
        #expect(
            try await loadError(huge)
                == "is not valid JSON: at byte \(huge.utf8.count - 7), inside an object (counter.count): the number 1e400 is too large for any number type; nothing was read"
        )
        let lineBreak = Self.header + "{\"articles\":{\"items\":[{\"id\":1,\"title\":\"A\nB\"}]}}}"
        #expect(
            try await loadError(lineBreak).contains(
                #"expected '"' to end the string (a line break or a tab in a string is written \n or \t), found a line break"#))
    }

    /// A name the file gives is one `:snapshot` could have given: an escape
    /// sequence in it would reach the terminal, and it could not be typed back.
    @Test func aNameInTheFileThatIsNoSnapshotNameIsRefusedShownEscaped() async throws {
        let text = Self.header.replacingOccurrences(of: #""name":"x""#, with: #""name":"a b\u001b[31m""#) + #"{"counter":{"count":1}}}"#
        let error = try await loadError(text)
        #expect(error.hasPrefix(#"names its snapshot "a b\u001b[31m", which is no snapshot name"#), "\(error)")
        #expect(!error.unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test func aFileThatIsNoJSONObjectIsNoSnapshot() async throws {
        #expect(try await loadError("counter.bump\n") == #"is not a karc snapshot (a JSON object with "karc-snapshot", written by :snapshot save)"#)
    }
}
