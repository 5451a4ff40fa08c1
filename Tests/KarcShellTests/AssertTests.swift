import Foundation
import KarcShellTrellis
import Testing
import Trellis

@testable import KarcSession

/// `:assert`: a script checks a part of a state, and stops with its line and
/// what the part was when the check does not hold.
@Suite("Meta commands: :assert", .timeLimit(.minutes(1)))
struct AssertTests {
    enum Shelf: Action, Codable, Equatable {
        case put(item: String)
    }

    struct Items: Equatable, Sendable, Codable {
        var items: [String] = []
        var labels: [String: Int] = ["a": 1]
        var owner: String?
        var total = 0
    }

    func shelf() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Items.self)
                .mutate(on: Shelf.self) { state, action, _ in
                    if case .put(let item) = action {
                        state.items.append(item)
                        state.total += 1
                    }
                }
                .with(model: Items())
                .named("shelf")
        }
        return ClusterShell(name: "shelf", cluster: cluster)
    }

    func run(_ lines: [String]) async throws -> Transcript {
        var options = ShellOptions()
        options.printing.color = false
        options.printing.diff = .off
        options.keepGoing = true
        return try await Transcript.run(try await shelf(), lines, options: options)
    }

    @Test func whatHoldsSaysSo() async throws {
        let run = try await run([
            "shelf.put item=book", "shelf.put item=\"old map\"", ":assert shelf.total == 2", ":assert shelf.items[1] == \"old map\"",
            ":assert shelf.items.count >= 2", ":assert shelf.items contains book", ":assert shelf.labels contains a", ":assert shelf.owner == null",
            ":assert shelf.items == [\"book\", \"old map\"]", ":assert shelf.total < 10", ":assert shelf.items[0] != map",
        ])
        #expect(run.errors == "")
        #expect(run.status == 0)
        #expect(run.output.split(separator: "\n").count { $0.hasPrefix("ok: shelf.") } == 9, "\(run.output)")
        #expect(run.output.contains(#"ok: shelf.items[1] == "old map""#))
    }

    @Test func whatDoesNotHoldFailsWithWhatThePartWas() async throws {
        let run = try await run([
            "shelf.put item=book", ":assert shelf.total == 3", ":assert shelf.total == \"1\"", ":assert shelf.items contains pen",
        ])
        #expect(run.status == 1)
        #expect(
            run.errors == """
                <test>:2:9: error: assertion failed: shelf.total is 1, expected == 3
                <test>:3:9: error: assertion failed: shelf.total is 1, expected == "1"
                <test>:4:9: error: assertion failed: shelf.items is ["book"], expected contains "pen"

                """)
    }

    /// `true` and `false` are no numbers: `== true` on a count of 1 fails
    /// (Foundation's JSON numbers hold both, and `true` equalled `1`), and
    /// a string with quotes in a message is written escaped.
    @Test func aBooleanIsNotANumberAndAQuotedStringReadsAsOne() async throws {
        let run = try await run([
            "shelf.put item=book", ":assert shelf.total == true", ":assert shelf.total != true", ":assert shelf.total < true",
            #":assert shelf.items[0] == "a \"b\"""#,
        ])
        #expect(run.output.contains("ok: shelf.total != true"), "\(run.output)")
        #expect(
            run.errors == """
                <test>:2:9: error: assertion failed: shelf.total is 1, expected == true
                <test>:4:21: error: < compares two numbers or two strings, not 1 and true
                <test>:5:9: error: assertion failed: shelf.items[0] is "book", expected == "a \\"b\\""

                """)
    }

    @Test(arguments: [
        (":assert", "<test>:1:2: error: :assert needs a path, an operator and a value (like :assert counter.count == 3)"),
        (":assert shelf.total ~ 1", "<test>:1:21: error: unknown operator '~'; expected one of ==, !=, <, <=, >, >=, contains"),
        (":assert shelve.total == 1", "<test>:1:9: error: unknown target 'shelve'; did you mean 'shelf'? Targets: shelf"),
        (
            ":assert shelf.totl == 1",
            "<test>:1:9: error: no field 'totl' in AssertTests.Items; did you mean 'total'? Fields: items, labels, owner, total"
        ),
        (
            ":assert shelf.total == two words",
            "<test>:1:24: error: expected one value: a number, true, false, null, a quoted string, one bare word, or JSON; got 'two words'"
        ),
        (":assert shelf.items < 3", "<test>:1:21: error: < compares two numbers or two strings, not [] and 3"),
        (":assert shelf.total contains 1", "<test>:1:21: error: contains needs a string, a list or an object, not 0"),
        (":assert shelf.total == \"1\" \"2\"", "<test>:1:28: error: :assert takes one value after its operator"),
    ])
    func aMistakeIsNamedWithItsPlace(line: String, expected: String) async throws {
        let run = try await run([line])
        #expect(run.status == 1)
        #expect(run.errors == expected + "\n")
    }
}

/// `.invariant(_:_:)` on a store: the shell checks it after every command
/// and fails the command that broke it, once.
@Suite("Invariants a cluster declares", .timeLimit(.minutes(1)))
struct InvariantTests {
    struct Inventory: Equatable, Sendable { var stock = 2 }
    enum Stock: Action, Codable, Equatable {
        case take(count: Int)
        case restock(count: Int)
    }

    func inventory() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Inventory.self)
                .mutate(on: Stock.self) { inventory, action, _ in
                    switch action {
                    case .take(let count): inventory.stock -= count
                    case .restock(let count): inventory.stock += count
                    }
                }
                .with(model: Inventory())
                .named("inventory")
                .invariant("stock never negative") { (inventory: Inventory) in inventory.stock >= 0 }
                .invariant("a check of another type is never asked") { (_: String) in false }
        }
        return ClusterShell(name: "shop", cluster: cluster)
    }

    @Test func theCommandThatBreaksAnInvariantFailsNamingItOnce() async throws {
        var options = ShellOptions()
        options.printing.diff = .off
        options.keepGoing = true
        let run = try await Transcript.run(
            try await inventory(), ["inventory.take count=1", "inventory.take count=3", "inventory.take count=1", "inventory.restock count=9"],
            options: options)
        #expect(run.status == 1)
        #expect(run.errors == "<test>:2:11: error: invariant 'stock never negative' of inventory does not hold after inventory.take\n")
    }

    @Test func theTargetListsItsInvariants() async throws {
        let cluster = try await Bootstrap {
            Store(model: Inventory.self).with(model: Inventory()).named("inventory")
                .invariant("stock never negative") { (inventory: Inventory) in inventory.stock >= 0 }
        }
        let target = try #require(cluster.targets.first { $0.name == "inventory" })
        #expect(target.invariants.map(\.name) == ["stock never negative"])
        #expect(target.invariants.first?.holds(for: Inventory(stock: -1)) == false)
        #expect(target.invariants.first?.holds(for: "not an inventory") == nil)
        await cluster.shutDown()
    }
}
