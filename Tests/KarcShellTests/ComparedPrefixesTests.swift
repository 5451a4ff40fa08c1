import CustomDump
import Testing

@testable import KarcRendering
@testable import KarcSession

/// One state change is printed as a diff and, with `--json`, as a JSON
/// tree: the two share their comparisons of arrays, and neither may print
/// anything different for it.
@Suite("Compared prefixes: one comparison of each array a render", .timeLimit(.minutes(1)))
struct ComparedPrefixesTests {
    struct Article: Codable, Equatable {
        var id: Int
        var title: String
    }
    struct Shelf: Codable, Equatable {
        var articles: [Article]
        var nextID: Int
    }

    static func shelf(_ count: Int) -> Shelf {
        Shelf(articles: (0..<count).map { Article(id: $0, title: "article \($0)") }, nextID: count)
    }

    @Test("the diff and the JSON tree of a change print what they print alone", arguments: ["append", "change", "remove"])
    func sharedComparisonsPrintTheSame(_ change: String) throws {
        let old = Self.shelf(2_000)
        var new = old
        switch change {
        case "append": new.articles.append(Article(id: 2_000, title: "appended"))
        case "change": new.articles[1_234].title = "changed"
        default: new.articles.remove(at: 17)
        }
        let prefixes = ComparedPrefixes()
        #expect(StateDiff.text(old, new, prefixes: prefixes) == diff(old, new))
        let before = try #require(JSONText.tree(old, reusing: nil))
        let alone = try #require(JSONText.tree(new, reusing: before))
        let shared = try #require(JSONText.tree(new, reusing: before, prefixes: prefixes))
        #expect(shared.text == alone.text)
        #expect(JSONPatch.patch(from: before, to: shared).map(\.text) == JSONPatch.patch(from: before, to: alone).map(\.text))
    }

    @Test("arrays of the same counts but other storage are compared again, not read from memory")
    func otherArraysOfTheSameCountsAreComparedAgain() {
        let prefixes = ComparedPrefixes()
        let old = (0..<100).map { "item \($0)" }
        var new = old
        new[40] = "changed"
        #expect(prefixes.unchangedPrefix(old, new) == 40)
        var other = old
        other[90] = "changed"
        #expect(prefixes.unchangedPrefix(old, other) == 90)
        #expect(prefixes.unchangedPrefix(old, new) == 40)
        #expect(prefixes.unchangedPrefix(old, old) == 100)
        #expect(prefixes.unchangedPrefix([String](), new) == 0)
    }
}
