import Foundation
import KarcShell
import KarcShellTrellis
import TestSupport
import Testing
import Trellis

/// `:trace`, `:seq` and `:export-diagram` on a cluster of the user's own: a
/// shop whose orders reserve stock in another store, a diver whose flows go
/// deep, a spinner that sends itself thousands of times, and a clock fed
/// from outside.
@Suite(.timeLimit(.minutes(1)))
struct TraceTests {
    struct Place: Action, Codable {
        var item: String
        var quantity: Int
    }
    struct Reserve: Action, Codable {
        var item: String
        var quantity: Int
    }
    struct Tick: Action, Codable {}
    struct Spin: Action, Codable { var remaining: Int }
    struct Dive: Action, Codable { var depth: Int }
    struct OutOfStock: Error, CustomStringConvertible {
        var item: String
        var description: String { "out of stock: \(item)" }
    }

    struct Orders: Equatable, Sendable { var placed: [String] = [] }
    struct Stock: Equatable, Sendable { var pens = 5 }

    actor Diver: ReceivingService {
        func receive(_ action: Dive) async throws -> ActionFlow<Dive> {
            action.depth > 0 ? .single(action: Dive(depth: action.depth - 1)) : .noop
        }
    }

    /// The shop; `ticks` feeds the `clock` target from outside the shell.
    static func shop(ticks: AsyncStream<Tick> = AsyncStream { $0.finish() }) async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Orders.self)
                .mutate(on: Place.self) { orders, place, send in
                    // A failed reservation does not fail the order: it shows in the trace.
                    try? await send(Reserve(item: place.item, quantity: place.quantity))
                    orders.placed.append(place.item)
                }
                .with(model: Orders()).named("orders")
            Store(model: Stock.self)
                .mutate(on: Reserve.self) { stock, reserve, _ in
                    guard reserve.quantity <= stock.pens else { throw OutOfStock(item: reserve.item) }
                    stock.pens -= reserve.quantity
                }
                .with(model: Stock()).named("inventory")
            Store(model: Int.self)
                .mutate(on: Tick.self) { count, _, _ in count += 1 }
                .with(model: 0).named("clock")
                .emit(using: ticks)
            Store(model: Int.self)
                .mutate(on: Spin.self) { count, spin, send in
                    count += 1
                    if spin.remaining > 0 { try await send(Spin(remaining: spin.remaining - 1)) }
                }
                .with(model: 0).named("spinner")
            Diver().named("diver")
        }
        return ClusterShell(name: "shop", cluster: cluster)
    }

    /// Output with each time a trace prints masked, as a transcript's `#mask duration` does.
    static func masked(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]+\.[0-9]{3} ms"#, with: "<t>", options: .regularExpression)
    }

    var plain: ShellOptions { .plain(quiet: true) }

    @Test func aCommandsTreeShowsTheSendsItCausedWithTheirOutcomes() async throws {
        let shop = try await Self.shop()
        let run = try await Transcript.run(
            shop, ["orders.place item=pen quantity=2", "orders.place item=pen quantity=9", ":trace 1", ":trace last"], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        let trees = Self.masked(run.output).components(separatedBy: "trace  ").dropFirst().map { "trace  " + $0 }
        #expect(
            trees == [
                """
                trace  #1 orders.place:
                  orders.place  ok  <t>
                    inventory.reserve  ok  <t>
                      state  inventory
                    state  orders

                """,
                """
                trace  #2 orders.place:
                  orders.place  ok  <t>
                    inventory.reserve  failed: out of stock: pen  <t>
                    state  orders

                """,
            ])
        await shop.shutDown()
    }

    struct Post: Action, Codable { var text: String }
    struct Deliver: Action, Codable { var text: String }
    struct Release: Action, Codable {}

    /// A mailbox whose `post` is delivered later, by a task the handler starts, once `door.release`
    /// opens the door; the release returns once the letter is delivered.
    static func mailbox() async throws -> ClusterShell {
        let door = AsyncStream<Void>.makeStream()
        let delivered = AsyncStream<Void>.makeStream()
        let cluster = try await Bootstrap {
            Store(model: [String].self)
                .mutate(on: Post.self) { _, post, send in
                    Task {
                        for await _ in door.stream { break }
                        try await send(Deliver(text: post.text))
                        delivered.continuation.yield()
                    }
                }
                .mutate(on: Deliver.self) { box, deliver, _ in box.append(deliver.text) }
                .with(model: [String]()).named("mail")
            Store(model: Int.self)
                .mutate(on: Release.self) { opened, _, _ in
                    opened += 1
                    door.continuation.yield()
                    for await _ in delivered.stream { break }
                }
                .with(model: 0).named("door")
        }
        return ClusterShell(name: "mail", cluster: cluster)
    }

    @Test func workThatComesAfterItsCommandEndedIsPrintedUnderItsCauseMarkedLate() async throws {
        let mail = try await Self.mailbox()
        let run = try await Transcript.run(mail, [":trace on", "mail.post text=hi", "door.release", ":trace 2"], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        let output = Self.masked(run.output)
        #expect(
            output.contains(
                """
                trace  #2 mail.post, later:
                    mail.deliver  ok  <t>
                      state  mail

                """), "\(output)")
        // Asked for again, the whole tree: the delivery under the post, marked late.
        #expect(
            output.hasSuffix(
                """
                trace  #2 mail.post:
                  mail.post  ok  <t>
                    mail.deliver  ok  <t>  (late)
                      state  mail  (late)

                """), "\(output)")
        await mail.shutDown()
    }

    @Test func traceOnPrintsEachCommandsTreeAfterItsOutputAndOffStops() async throws {
        let shop = try await Self.shop()
        var options = plain
        options.printing.quiet = false
        let run = try await Transcript.run(
            shop, [":trace", ":trace on", "orders.place item=pen quantity=1", ":trace off", "orders.place item=pen quantity=1"], options: options)
        let output = Self.masked(run.output)
        #expect(
            output.hasPrefix(
                "trace off: trees are not printed (:trace N prints command N's)\ntrace on: each command's causal tree is printed after it\n"))
        #expect(
            output.contains(
                """
                  + )
                trace  #3 orders.place:
                  orders.place  ok  <t>
                    inventory.reserve  ok  <t>
                """))
        #expect(output.components(separatedBy: "trace  #").count == 2, "one tree: :trace off stops them")
        await shop.shutDown()
    }

    @Test func jsonLinesFromTheClusterCarryTheirTraceSpanAndParent() async throws {
        let shop = try await Self.shop()
        var options = plain
        options.printing.json = true
        let run = try await Transcript.run(shop, ["orders.place item=pen quantity=1"], options: options)
        let lines = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let states = Dictionary(
            uniqueKeysWithValues: lines.filter { $0["kind"] as? String == "state" }.map { ($0["target"] as? String ?? "", $0) })
        let order = try #require(states["orders"])
        let stock = try #require(states["inventory"])
        #expect(order["parent"] == nil, "the command's own change: its root span")
        #expect(order["span"] as? String == order["trace"] as? String)
        #expect(stock["trace"] as? String == order["trace"] as? String)
        #expect(stock["parent"] as? String == order["span"] as? String, "the reservation is the order's child")
        #expect(stock["span"] as? String != order["span"] as? String)
        #expect(lines.first { $0["kind"] as? String == "done" }?["trace"] == nil, "a line about the command, not the cluster")
        await shop.shutDown()
    }

    @Test func aChangeNoCommandMadeSaysWhatStartedItsTrace() async throws {
        let (ticks, feed) = AsyncStream<Tick>.makeStream()
        let shop = try await Self.shop(ticks: ticks)
        // Fed before the session's first command: printed before it, as no command's.
        feed.yield(Tick())
        #expect(await shop.cluster.settled())
        // Polls: the tick comes from outside the shell; a store's state read through the cluster has no change hook.
        #expect(await eventually { await shop.state(of: "clock") as? Int == 1 })
        let run = try await Transcript.run(shop, ["orders.place item=pen quantity=1"], options: plain)
        #expect(run.output.hasPrefix("state  clock (by emitter clock):\n  - 0\n  + 1\n"), "\(run.output)")
        feed.finish()
        await shop.shutDown()
    }

    @Test func aRunawayFlowIsBoundedInLengthAndDepth() async throws {
        let shop = try await Self.shop()
        let run = try await Transcript.run(shop, ["spinner.spin remaining=3000", ":trace 1", "diver.dive depth=40", ":trace 3"], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        let trees = Self.masked(run.output).components(separatedBy: "trace  #").dropFirst().map { $0.split(separator: "\n").map(String.init) }
        let spin = try #require(trees.first)
        // 3,001 sends (each a begin, a change and an end): the first thousand hops kept, the rest counted; a
        // hundred lines drawn under the send that made them, the rest counted too.
        #expect(spin.contains("  … 8003 more hops not kept (at most 1000 a trace)"), "\(spin.suffix(3))")
        #expect(spin.contains("    … 566 more hops here (at most 100 lines under one send)"), "\(spin.suffix(3))")
        #expect(spin.count < 110)
        let dive = try #require(trees.last)
        #expect(dive.contains { $0.contains("… 9 more hops deeper than 32 levels (a runaway flow?)") }, "\(dive.suffix(3))")
        #expect(dive.allSatisfy { $0.prefix { $0 == " " }.count <= 2 * 34 })
        await shop.shutDown()
    }

    @Test func wrongArgumentsSayWhatIsThere() async throws {
        let shop = try await Self.shop()
        var options = plain
        options.keepGoing = true
        let run = try await Transcript.run(
            shop,
            [
                ":trace last", ":seq", "orders.place item=pen quantity=1", ":trace 99", ":trace 2", ":trace soon", ":trace 1 2", ":seq 5-3",
                ":seq 7", ":export-diagram", ":export-diagram /nonexistent/dir/flow.md",
            ], options: options)
        #expect(
            run.errors.split(separator: "\n") == [
                "<test>:1:8: error: no command has a trace yet: :trace last prints the last send's",
                "<test>:2:2: error: no command has a flow yet: :seq draws the sends of this session",
                "<test>:4:8: error: there is no command 99 yet (:history lists them); commands with one: 3",
                "<test>:5:8: error: command 2 has no trace (only sends have one); commands with one: 3",
                "<test>:6:8: error: expected :trace on, off, last or a command's number (:history), got 'soon'",
                "<test>:7:10: error: :trace takes one argument",
                "<test>:8:6: error: the end is before the start in '5-3': write 3-5",
                "<test>:9:6: error: no command in 7 has a flow (only sends have one); commands with one: 3",
                "<test>:10:2: error: :export-diagram needs a file name: :export-diagram flow.md [N | N-M]",
                "<test>:11:17: error: cannot write /nonexistent/dir/flow.md: No such file or directory",
            ])
        await shop.shutDown()
    }

    @Test func theDiagramIsMermaidWithAParticipantATargetInOrder() async throws {
        let shop = try await Self.shop()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karc-diagram-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("flow.md").path
        let run = try await Transcript.run(
            shop, ["orders.place item=pen quantity=2", "orders.place item=pen quantity=9", ":export-diagram \(file) 1-2"], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        let diagram = try Mermaid.parse(try String(contentsOfFile: file, encoding: .utf8))
        #expect(diagram.participants == ["shell", "orders", "inventory"])
        #expect(
            diagram.messages == [
                "shell->>orders: orders.place", "orders->>inventory: inventory.reserve", "note inventory: state changed",
                "note orders: state changed",
                "shell->>orders: orders.place", "orders->>inventory: inventory.reserve", "inventory--xorders: failed: out of stock: pen",
                "note orders: state changed",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["flow.md"], "no temporary file left")
        await shop.shutDown()
    }

    @Test func theTerminalDiagramFitsItsWidth() async throws {
        let shop = try await Self.shop()
        let run = try await Transcript.run(shop, ["orders.place item=pen quantity=9", ":seq"], options: plain)
        let lines = run.output.split(separator: "\n").drop { !$0.hasPrefix("seq") }.map(String.init)
        #expect(
            lines == [
                "seq    #1 orders.place:",
                "    shell                      orders                     inventory",
                "      │ orders.place              │                           │",
                "      ├──────────────────────────▶│                           │",
                "      │                           │ inventory.reserve         │",
                "      │                           ├──────────────────────────▶│",
                "      │                           │ failed: out of stock: pen │",
                "      │                           │◀╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌┤",
                "      │                           ● state changed             │",
            ])
        #expect(lines.allSatisfy { $0.count <= 100 })
        await shop.shutDown()
    }
}

/// Reads a Mermaid `sequenceDiagram` as GitHub does, strictly: what a test
/// expects of one (participants declared before use, arrows and notes
/// between them, no character Mermaid would misread in a message).
enum Mermaid {
    struct Diagram {
        var participants: [String] = []
        var messages: [String] = []
    }

    struct Malformed: Error, CustomStringConvertible {
        let line: String
        var description: String { "not Mermaid: \(line)" }
    }

    static func parse(_ markdown: String) throws -> Diagram {
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeAll { $0.hasPrefix("<!--") }
        guard lines.first == "```mermaid", lines.dropFirst().first == "sequenceDiagram" else { throw Malformed(line: lines.first ?? "") }
        var diagram = Diagram()
        var ids: [String: String] = [:]
        for line in lines.dropFirst(2) where line != "```" && !line.isEmpty {
            let text = line.trimmingCharacters(in: .whitespaces)
            if let match = text.wholeMatch(of: /participant (\w+) as (.+)/) {
                ids[String(match.1)] = String(match.2)
                diagram.participants.append(String(match.2))
            } else if let match = text.wholeMatch(of: /Note over (\w+): (.+)/) {
                guard let name = ids[String(match.1)] else { throw Malformed(line: line) }
                try check(String(match.2), in: line)
                diagram.messages.append("note \(name): \(match.2)")
            } else if let match = text.wholeMatch(of: /(\w+)(->>|-->>|--x)(\w+): (.+)/) {
                guard let from = ids[String(match.1)], let to = ids[String(match.3)] else { throw Malformed(line: line) }
                try check(String(match.4), in: line)
                diagram.messages.append("\(from)\(match.2)\(to): \(match.4)")
            } else {
                throw Malformed(line: line)
            }
        }
        return diagram
    }

    /// A message Mermaid reads as text: no `;` (a statement's end) and no `#` but its entity codes.
    private static func check(_ message: String, in line: String) throws {
        if message.contains(";") && !message.contains("#59;") { throw Malformed(line: line) }
    }
}
