import Foundation
import KarcRendering
import KarcSession
import KarcSessionTrellis
import Trellis

// `shell.bigstate.shapes.*`: what a command's output costs on a user's own
// types, not only the demo's. Each shape is the element of a 10,000-element
// list in a value store; each command appends one, and the session prints
// its diff (readable) or its patch (`--json`).

/// The demo's shape: numbers and a string.
struct PlainItem: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
    var likes = 0
}

/// A to-do: a flag and an optional date (padding between fields, an optional's tag).
struct DatedItem: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
    var done = false
    var due: Date?
}

/// An enum with payloads.
struct TicketItem: Codable, Equatable, Sendable, Identifiable {
    enum Status: Codable, Equatable, Sendable {
        case open
        case assigned(to: String)
        case closed(at: Date, reason: String?)
    }
    var id: Int
    var title: String
    var status: Status
}

/// A nested struct holding a list and a dictionary.
struct NestedItem: Codable, Equatable, Sendable, Identifiable {
    struct Meta: Codable, Equatable, Sendable {
        var author: String
        var tags: [String]
        var scores: [String: Int]
    }
    var id: Int
    var title: String
    var meta: Meta
}

/// A class reference.
struct OwnedItem: Codable, Equatable, Sendable, Identifiable {
    final class Owner: Codable, Equatable, Sendable {
        let name: String
        init(name: String) { self.name = name }
        static func == (lhs: Owner, rhs: Owner) -> Bool { lhs.name == rhs.name }
    }
    var id: Int
    var title: String
    var owner: Owner
}

/// A list of one shape, and how to make its next element from a title.
struct ShapeList<Item: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    var items: [Item]
}

struct AddItem: Codable, Sendable {
    var title: String
}

/// A shape: its name, and two measures over a list of `size` elements
/// made by its `make`, each appending one a command: a whole session
/// (`shell.bigstate.shapes.*`: the store's append, the record, the output)
/// and the shell's rendering alone (`shell.render.shapes.*`: the diff, or
/// the JSON tree and patch, of the list before and after an append; with
/// `prepending`, an element inserted at the start, as a feed's newest is:
/// `shell.render.shapes.*.prepend.*`).
struct Shape: Sendable {
    let name: String
    let session: @Sendable (_ size: Int, _ n: Int, _ json: Bool) async throws -> Double
    let render: @Sendable (_ size: Int, _ n: Int, _ json: Bool, _ prepending: Bool) -> Double
    /// Swift's own cost of one append while the list before it is kept
    /// (`baseline.cow.shapes.*`): the copy and the free that any observer
    /// holding the old state as a value makes a store pay.
    let copyOnWrite: @Sendable (_ size: Int, _ n: Int) -> Double
    /// The JSON tree of the whole list made from nothing, as a `--json`
    /// session makes it for a target's first printed change (`shell.render.shapes.*.tree`).
    let wholeTree: @Sendable (_ size: Int, _ n: Int) -> Double

    init<Item: Codable & Equatable & Sendable>(_ name: String, _ make: @escaping @Sendable (Int, String) -> Item) {
        self.name = name
        session = { try await shapeRun(size: $0, n: $1, json: $2, make) }
        render = { renderRun(size: $0, n: $1, json: $2, prepending: $3, make) }
        copyOnWrite = { copyOnWriteRun(size: $0, n: $1, make) }
        wholeTree = { wholeTreeRun(size: $0, n: $1, make) }
    }
}

let shapes: [Shape] = [
    Shape("plain") { PlainItem(id: $0, title: $1, likes: $0 % 7) },
    Shape("dated") {
        DatedItem(id: $0, title: $1, done: $0.isMultiple(of: 2), due: $0.isMultiple(of: 3) ? nil : Date(timeIntervalSince1970: Double($0)))
    },
    Shape("enum") { id, title in
        let status: TicketItem.Status =
            switch id % 3 {
            case 0: .open
            case 1: .assigned(to: "user \(id % 10)")
            default: .closed(at: Date(timeIntervalSince1970: Double(id)), reason: id.isMultiple(of: 2) ? nil : "done")
            }
        return TicketItem(id: id, title: title, status: status)
    },
    Shape("nested") { NestedItem(id: $0, title: $1, meta: .init(author: "a\($0 % 5)", tags: ["x", "y"], scores: ["s": $0])) },
    Shape("reference") { OwnedItem(id: $0, title: $1, owner: .init(name: "owner \($0 % 10)")) },
]

/// The shell's rendering of `n` appends to a list of `size` elements, as a
/// session renders them: each append made in place, the diff of the list
/// against the snapshot of the last one (readable), also its JSON tree,
/// reusing the last one's, and the patch between them (`--json`), then the
/// list's snapshot, for the next.
func renderRun<Item: Codable & Equatable & Sendable>(
    size: Int, n: Int, json: Bool, prepending: Bool = false, _ make: @Sendable (Int, String) -> Item
) -> Double {
    var list = ShapeList(items: (0..<size).map { make($0, "item \($0)") })
    var snapshot = StateSnapshot.take(list)
    var tree = ValueText.tree(list, reusing: nil)
    // One append first: the snapshot then holds the bytes of the list's own storage, as after a session's first change.
    list.items.append(make(size, "first"))
    snapshot = StateSnapshot.take(list, reusing: snapshot)
    tree = ValueText.tree(list, reusing: nil)
    var written = 0
    let elapsed = ContinuousClock().measure {
        for index in 0..<n {
            if prepending {
                list.items.insert(make(size + 1 + index, "prepended \(index)"), at: 0)
            } else {
                list.items.append(make(size + 1 + index, "appended \(index)"))
            }
            let prefixes = ComparedPrefixes()
            guard let difference = StateDiff.text(snapshot, list, prefixes: prefixes) else { continue }
            if json {
                let newTree = ValueText.tree(list, reusing: tree, prefixes: prefixes)
                written += JSONLine.write(["patch": JSONPatch.patch(from: tree, to: newTree), "diff": difference]).utf8.count
                tree = newTree
            } else {
                written += difference.utf8.count
            }
            snapshot = StateSnapshot.take(list, reusing: snapshot, prefixes: prefixes)
        }
    }
    // Nothing rendered (the lists compared equal) measured nothing.
    return written > 0 ? Double(n) / elapsed.seconds : 0
}

/// `n` JSON trees of a list of `size` elements, each made from nothing; trees a second.
func wholeTreeRun<Item: Codable & Equatable & Sendable>(size: Int, n: Int, _ make: @Sendable (Int, String) -> Item) -> Double {
    let list = ShapeList(items: (0..<size).map { make($0, "item \($0)") })
    let elapsed = ContinuousClock().measure {
        // Each tree kept until it is made, so the optimizer cannot drop the work.
        for _ in 0..<n { withExtendedLifetime(ValueText.tree(list, reusing: nil)) {} }
    }
    return Double(n) / elapsed.seconds
}

/// `n` appends to a list of `size` elements, each while the list before it
/// is kept until the next: one copy of the list and one free a command, and
/// nothing else: the floor of a session whose store reports its old state.
func copyOnWriteRun<Item: Codable & Equatable & Sendable>(size: Int, n: Int, _ make: @Sendable (Int, String) -> Item) -> Double {
    var list = ShapeList(items: (0..<size).map { make($0, "item \($0)") })
    var kept = list
    let elapsed = ContinuousClock().measure {
        for index in 0..<n {
            kept = list
            list.items.append(make(size + index, "appended \(index)"))
        }
    }
    // The two lists differ by the appends: a check that the loop ran.
    return list.items.count - kept.items.count == 1 ? Double(n) / elapsed.seconds : 0
}

/// A session in this process on a store named `list` of `size` items made by `make`, sent `n` appends.
func shapeRun<Item: Codable & Equatable & Sendable>(
    size: Int, n: Int, json: Bool, _ make: @escaping @Sendable (Int, String) -> Item
) async throws -> Double {
    let cluster = try await Bootstrap {
        Store(model: ShapeList<Item>.self)
            .mutate(on: AddItem.self) { list, add, _ in list.items.append(make(list.items.count, add.title)) }
            .with(model: ShapeList(items: (0..<size).map { make($0, "item \($0)") }))
            .named("list")
    }
    let shell = ClusterShell(name: "shapes", cluster: cluster)
    var options = ShellOptions()
    options.printing.json = json
    options.printing.quiet = true
    let devNull = open("/dev/null", O_WRONLY)
    defer { close(devNull) }
    let commands = (0..<n).map { "list.add-item title=\"appended \($0)\"" }
    let clock = ContinuousClock()
    var status: Int32 = 0
    let elapsed = await clock.measure {
        status = await Shell.runSession(
            shell, options: options, commands: commands, input: .none,
            sink: OutputSink(output: devNull, errors: devNull),
            host: LocalHost())
    }
    await cluster.shutDown()
    // A run whose commands failed measured nothing: 0, not a rate.
    return status == 0 ? Double(n) / elapsed.seconds : 0
}
