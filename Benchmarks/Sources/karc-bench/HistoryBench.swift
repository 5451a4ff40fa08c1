import Foundation
import KarcSession
import KarcSessionTrellis
import Trellis

// `shell.history.rss`, `shell.blame` and `shell.bigstate.json.watches`: what
// keeping a session's history costs on a long run over a big state.

/// `shell.history.rss`: the peak resident memory (MB, `/usr/bin/time`) of a
/// piped `--json` session on the demo that fills `articles` with `size`
/// articles and then sends `commands` likes spread over them, each a change
/// the history keeps (`--history-limit` at its default).
func shellHistoryRSS(size: Int, commands: Int) throws -> Double {
    var lines = [":diff off", "identity.login email=bench@example.com password=s3cret!"]
    for index in 0..<size { lines.append("articles.add title=\"article \(index)\"") }
    lines.append(":diff on")
    for index in 0..<commands { lines.append("articles.like id=\(1 + (index * 7_919) % size)") }
    return try peakMegabytes(ofKarcOn: Data((lines.joined(separator: "\n") + "\n").utf8))
}

/// A shelf of `size` books, each liked now and then.
struct HistoryShelf: Equatable, Sendable, Codable {
    struct Book: Equatable, Sendable, Codable {
        var title: String
        var likes = 0
    }
    var books: [Book]
}

struct LikeBook: Codable, Sendable { var index: Int }

/// `shell.blame`: milliseconds a `:blame` of one book's likes takes at the
/// end of a session of `commands` likes spread over `size` books (in this
/// process, output to /dev/null; the median of `blames`).
func shellBlame(size: Int, commands: Int, blames: Int) async throws -> Double {
    let cluster = try await Bootstrap {
        Store(model: HistoryShelf.self)
            .mutate(on: LikeBook.self) { shelf, like, _ in shelf.books[like.index].likes += 1 }
            .with(model: HistoryShelf(books: (0..<size).map { HistoryShelf.Book(title: "book \($0)") }))
            .named("shelf")
    }
    let shell = ClusterShell(name: "history", cluster: cluster)
    var options = ShellOptions()
    options.printing.json = true
    options.printing.quiet = true
    let devNull = open("/dev/null", O_WRONLY)
    defer { close(devNull) }
    let likes = (0..<commands).map { "shelf.like-book index=\(($0 * 7_919) % size)" }
    let sink = OutputSink(output: devNull, errors: devNull)
    let measured = Array(repeating: ":blame shelf.books[5].likes", count: blames)
    guard let times = await Shell.measure(shell, options: options, setUp: likes, measured: measured, sink: sink) else {
        preconditionFailure("the session failed")
    }
    await cluster.shutDown()
    return median(times.map { $0.seconds * 1_000 })
}
