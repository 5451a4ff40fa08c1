import Foundation
import KarcCommand
import KarcShell
import KarcShellTrellis
import Testing
import Trellis

/// The shell in front of a cluster written as a user writes one: enum
/// actions in the seeds' style, every common field type, and two targets
/// that accept the same action type.
@Suite("The shell on a user's own cluster", .timeLimit(.minutes(1)))
struct OwnClusterTests {
    enum Priority: Int, Codable, Sendable {
        case low = 1
        case normal = 2
        case high = 3
    }
    enum Status: String, Codable, Sendable {
        case open
        case shipped = "SHIPPED"
    }

    struct Address: Codable, Sendable, Equatable {
        var city: String
        var zip: String?
    }

    /// The seeds' style: an enum whose cases are the commands.
    enum CartAction: Action, Codable, Equatable {
        case add(item: String, quantity: Int)
        case remove(String)
        case rename(String, to: String)
        case clear
    }

    /// One field of every common type.
    struct PlaceOrder: Action, Codable, Equatable {
        var id: UUID
        var at: Date
        var site: URL
        var total: Decimal
        var weight: Float
        var priority: Priority
        var status: Status?
        var tags: [String]
        var labels: [String: Int]?
        var address: Address
        var note: String?
        var due: Date?
    }

    struct Reset: Action, Codable {}

    /// Swift's own `Decodable` ignores the default: without `@Command`, `by` is required.
    struct PlainBump: Action, Codable { var by = 1 }

    /// Moves the cursor.
    @Command
    struct Bump: Action, Codable, Equatable {
        /// How far.
        var by = 1
        var priority: Priority = .normal
        var label: String?
        var reason: String
    }

    /// The seeds' enum style, with defaults in the cases.
    @Command
    enum Wish: Action, Codable, Equatable {
        /// Wishes for something.
        /// - Parameter count: how many of it.
        case want(thing: String, count: Int = 2, priority: Priority = .high)
        case forget(String, always: Bool = false)
        case nothing
    }

    struct Cart: Equatable, Sendable {
        var items: [String: Int] = [:]
        var orders: [PlaceOrder] = []
        var resets = 0
        var bumps: [Bump] = []
        var wishes: [Wish] = []
    }

    struct Counter: Equatable, Sendable { var resets = 0 }

    func shop() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Cart.self)
                .mutate(on: CartAction.self) { cart, action, _ in
                    switch action {
                    case .add(let item, let quantity): cart.items[item, default: 0] += quantity
                    case .remove(let item): cart.items[item] = nil
                    case .rename(let old, let new): cart.items[new] = cart.items.removeValue(forKey: old)
                    case .clear: cart.items = [:]
                    }
                }
                .mutate(on: PlaceOrder.self) { cart, order, _ in cart.orders.append(order) }
                .mutate(on: Reset.self) { cart, _, _ in cart.resets += 1 }
                .mutate(on: Bump.self) { cart, bump, _ in cart.bumps.append(bump) }
                .mutate(on: PlainBump.self) { cart, bump, _ in cart.resets += bump.by }
                .mutate(on: Wish.self) { cart, wish, _ in cart.wishes.append(wish) }
                .with(model: Cart())
                .named("cart")
            Store(model: Counter.self)
                .mutate(on: Reset.self) { counter, _, _ in counter.resets += 1 }
                .with(model: Counter())
                .named("counter")
        }
        return ClusterShell(name: "shop", cluster: cluster)
    }

    func cart(_ shell: ClusterShell) async -> Cart? { await shell.state(of: "cart") as? Cart }

    @Test func eachCaseOfAnEnumActionIsACommand() async throws {
        let shell = try await shop()
        let run = try await Transcript.run(
            shell,
            [
                "cart.add item=apple quantity=2",
                "cart.add {\"item\": \"pear\", \"quantity\": 1}",
                "cart.rename _0=pear to=quince",
                "cart.remove _0=apple",
            ])
        #expect(run.errors == "")
        #expect(run.status == 0)
        #expect(await cart(shell)?.items == ["quince": 1])
        let names = shell.catalog.target(named: "cart")?.commands.map(\.synopsis)
        #expect(
            names?.prefix(6) == [
                "add item=String quantity=Int", "remove _0=String", "rename _0=String to=String", "clear", "place-order " + placeOrderFields, "reset",
            ])
        let cleared = try await Transcript.run(shell, ["cart.clear"])
        #expect(cleared.status == 0)
        #expect(await cart(shell)?.items == [:])
    }

    let placeOrderFields =
        "id=UUID at=Date site=URL total=Decimal weight=Float priority=Priority [status=Status] tags=[String] [labels=[String: Int]] address=Address [note=String] [due=Date]"

    @Test(arguments: [
        ("cart.ad item=x quantity=1", "<test>:1:6: error: unknown command 'ad' for cart; did you mean 'add'?"),
        ("cart.add item=x", "<test>:1:6: error: cart.add: missing required field quantity=Int"),
        ("cart.add item=x quantity=1 bogus=2", "<test>:1:28: error: unknown field 'bogus' for add. Fields: item, quantity"),
        ("cart.add item=x quantity=many", "<test>:1:26: error: field 'quantity' expects Int, got \"many\""),
        ("cart.add item=x quantty=1", "<test>:1:17: error: unknown field 'quantty' for add; did you mean 'quantity'?"),
    ])
    func anEnumCaseCommandFailsLikeAStructCommand(line: String, expected: String) async throws {
        let run = try await Transcript.run(try await shop(), [line])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix(expected), "\(run.errors)")
    }

    @Test func everyCommonFieldTypeIsTyped() async throws {
        let shell = try await shop()
        let run = try await Transcript.run(
            shell,
            [
                "cart.place-order id=E621E1F8-C36C-495A-93FC-0C247A3E6E5F at=2026-11-23T10:30:00Z site=https://shop.example/a?b=1 "
                    + "total=12.35 weight=0.5 priority=high status=shipped tags=[gift, fragile] labels.floor=3 labels.bay=7 "
                    + "address.city=Paris address.zip=75001 due=1700000000",
                "cart.place-order id=e621e1f8-c36c-495a-93fc-0c247a3e6e5f at=2026-11-23 site=https://shop.example total=1 weight=2 "
                    + "priority=1 status=SHIPPED tags=solo labels={\"a\": 1} address={\"city\": \"Lyon\"} note=nil",
            ])
        #expect(run.errors == "")
        let orders = try #require(await cart(shell)?.orders)
        try #require(orders.count == 2)
        let first = orders[0]
        #expect(first.id == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(first.at == Date(timeIntervalSince1970: 1_795_429_800))
        #expect(first.site == URL(string: "https://shop.example/a?b=1"))
        #expect(first.total == Decimal(string: "12.35"))
        #expect(first.weight == 0.5)
        #expect(first.priority == .high)
        #expect(first.status == .shipped)
        #expect(first.tags == ["gift", "fragile"])
        #expect(first.labels == ["floor": 3, "bay": 7])
        #expect(first.address == Address(city: "Paris", zip: "75001"))
        #expect(first.due == Date(timeIntervalSince1970: 1_700_000_000))
        let second = orders[1]
        #expect(second.at == Date(timeIntervalSince1970: 1_795_392_000))
        #expect(second.priority == .low)
        #expect(second.tags == ["solo"])
        #expect(second.labels == ["a": 1])
        #expect(second.address == Address(city: "Lyon", zip: nil))
        #expect(second.note == nil)
    }

    static let order =
        "cart.place-order id=E621E1F8-C36C-495A-93FC-0C247A3E6E5F at=2026-11-23 site=https://a.example total=1 weight=1 priority=low tags=[] address.city=Paris"

    @Test(arguments: [
        (
            order.replacingOccurrences(of: "at=2026-11-23", with: "at=yesterday"),
            "field 'at' expects a Date (ISO 8601 like 2026-11-23 or 2026-11-23T10:30:00Z, or seconds since 1970), got \"yesterday\""
        ),
        (order.replacingOccurrences(of: "id=E621E1F8-C36C-495A-93FC-0C247A3E6E5F", with: "id=42x"), "field 'id' expects a UUID"),
        (order.replacingOccurrences(of: "priority=low", with: "priority=urgent"), "field 'priority' expects one of 1, 2, 3, got \"urgent\""),
        (
            order.replacingOccurrences(of: "address.city=Paris", with: "address.cty=Paris"),
            "unknown field 'cty' in 'address' (Address); did you mean 'city'?"
        ),
        (order + " address={\"city\": \"Lyon\"}", "field 'address' is given twice"),
        (order.replacingOccurrences(of: "total=1", with: "total=lots"), "field 'total' expects a Decimal"),
        (order.replacingOccurrences(of: " address.city=Paris", with: ""), "missing required field address=Address"),
        (order.replacingOccurrences(of: "tags=[]", with: "tags.x=1"), "field 'tags' is a [String]: it has no fields to set with 'tags.x'"),
    ])
    func aBadValueOfAnyTypeSaysWhatIsAccepted(line: String, expected: String) async throws {
        let run = try await Transcript.run(try await shop(), [line])
        #expect(run.status == 1)
        #expect(run.errors.contains(expected), "\(run.errors)")
    }

    @Test func aCommandReachesOnlyTheTargetItNames() async throws {
        let shell = try await shop()
        let run = try await Transcript.run(shell, ["counter.reset", "counter.reset", "cart.reset"])
        #expect(run.status == 0)
        #expect(await shell.state(of: "counter") as? Counter == Counter(resets: 2))
        #expect(await cart(shell)?.resets == 1)
    }

    @Test func aFieldWithADefaultMayBeLeftOutWhenTheTypeIsACommand() async throws {
        let shell = try await shop()
        let run = try await Transcript.run(
            shell,
            [
                "cart.bump reason=first",
                "cart.bump reason=second by=3 priority=low label=x",
                "cart.want thing=tea",
                "cart.want thing=cake count=1 priority=low",
                "cart.forget _0=tea",
                "cart.nothing",
            ])
        #expect(run.errors == "")
        #expect(
            await cart(shell)?.bumps == [
                Bump(by: 1, priority: .normal, label: nil, reason: "first"), Bump(by: 3, priority: .low, label: "x", reason: "second"),
            ])
        #expect(
            await cart(shell)?.wishes == [
                .want(thing: "tea", count: 2, priority: .high), .want(thing: "cake", count: 1, priority: .low), .forget("tea", always: false),
                .nothing,
            ])
        let plain = try await Transcript.run(shell, ["cart.plain-bump"])
        #expect(plain.errors.contains("missing required field by=Int"), "types without @Command decode as Swift's Decodable does")
    }

    @Test func defaultsAndDocCommentsShowInHelp() async throws {
        let shell = try await shop()
        let cart = try #require(shell.catalog.target(named: "cart"))
        #expect(cart.command(named: "bump")?.synopsis == "bump [by=Int, default 1] [priority=Priority, default .normal] [label=String] reason=String")
        #expect(cart.command(named: "want")?.synopsis == "want thing=String [count=Int, default 2] [priority=Priority, default .high]")
        let help = try await Transcript.run(shell, [":help cart.bump", ":help cart.want"])
        #expect(
            help.output == """
                cart.bump [by=Int, default 1] [priority=Priority, default .normal] [label=String] reason=String
                  Moves the cursor.
                  by  Int  optional, default 1  — How far.
                  priority  Priority  optional, default .normal; one of 1, 2, 3
                  label  String  optional
                  reason  String  required
                cart.want thing=String [count=Int, default 2] [priority=Priority, default .high]
                  Wishes for something.
                  thing  String  required
                  count  Int  optional, default 2  — how many of it.
                  priority  Priority  optional, default .high; one of 1, 2, 3

                """)
    }
}
