// Clusters with bugs planted where only a sequence of commands finds them:
// what ExploreTests runs `explore` against (`explore-planted explore --bug crash`).
import ArgumentParser
import KarcCommand
import KarcShellTrellis
import Trellis

/// Which planted bug the cluster has.
struct Planted: ParsableArguments, Sendable {
    @Option(help: "crash, combo, interleave, hang, error, or unstartable (a cluster that cannot start)")
    var bug = "crash"
}

// crash: `vault.c` after `vault.b` after `vault.a`, whatever came between, traps.
struct Vault: Equatable, Sendable, Codable { var stage = 0 }

@Command
enum VaultAction: Action, Codable {
    case a, b, c
    case noise(level: Int = 0)
    case close
}

// combo: `lock.e` after `lock.a`, `b`, `c` and `d` in that order, among
// thirty other commands, traps: explore meets it after a long sequence
// (a few hundred commands), which shrinking takes down to five.
struct Lock: Equatable, Sendable, Codable { var stage = 0 }

@Command
enum LockAction: Action, Codable, Equatable {
    case a, b, c, d, e
    case n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11, n12, n13, n14, n15
    case n16, n17, n18, n19, n20, n21, n22, n23, n24, n25, n26, n27, n28, n29, n30
}

// interleave: `orders.ship` takes a unit without looking, so the stock goes
// below zero only when `stock.sell` ran between `orders.place` and it.
struct Stock: Equatable, Sendable, Codable { var units = 1 }
struct Orders: Equatable, Sendable, Codable { var pending = false }

@Command
enum StockAction: Action, Codable {
    case sell
    case refill
}

struct TakeUnit: Action {}

@Command
enum OrderAction: Action, Codable {
    case place
    case ship
    case cancel
}

// hang: from four `deep.step`s down, `deep.dive` never answers.
struct Depth: Equatable, Sendable, Codable { var level = 0 }

@Command
enum DeepAction: Action, Codable {
    case step
    case surface
    case dive
}

// error: `safe.open code=…` with the code of the last `safe.set` throws a bug's error.
struct Safe: Equatable, Sendable, Codable { var code: Int? }
struct SafeJammed: Error {}

// unstartable: the cluster cannot be made (its database is missing, say).
struct Unstartable: Error, CustomStringConvertible {
    var description: String { "the planted cluster's store is missing" }
}
struct WrongCode: Error {}

@Command
enum SafeAction: Action, Codable {
    case set(code: Int)
    case open(code: Int)
}

/// The planted cluster `--bug` names, as its own shell.
enum ExplorePlanted: TrellisShellApp {
    typealias Arguments = Planted
    static let name = "explore-planted"

    static func cluster(for launch: ClusterLaunch<ExplorePlanted>) async throws -> Cluster {
        switch launch.arguments.bug {
        case "unstartable":
            throw Unstartable()
        case "crash":
            return try await Bootstrap {
                Store(model: Vault.self)
                    .mutate(on: VaultAction.self) { vault, action, _ in
                        switch action {
                        case .a: if vault.stage == 0 { vault.stage = 1 }
                        case .b: if vault.stage == 1 { vault.stage = 2 }
                        case .c: if vault.stage == 2 { fatalError("planted: the vault opened after a, b, c") }
                        case .noise: break
                        case .close: vault.stage = 0
                        }
                    }
                    .with(model: Vault())
                    .named("vault")
            }
        case "combo":
            return try await Bootstrap {
                Store(model: Lock.self)
                    .mutate(on: LockAction.self) { lock, action, _ in
                        let order: [LockAction] = [.a, .b, .c, .d]
                        if lock.stage < order.count, action == order[lock.stage] { lock.stage += 1 }
                        if lock.stage == order.count, action == .e { fatalError("planted: the lock opened after a, b, c, d, e") }
                    }
                    .with(model: Lock())
                    .named("lock")
            }
        case "interleave":
            return try await Bootstrap {
                Store(model: Stock.self)
                    .mutate(on: StockAction.self) { stock, action, _ in
                        switch action {
                        case .sell: if stock.units > 0 { stock.units -= 1 }
                        case .refill: stock.units = 1
                        }
                    }
                    .mutate(on: TakeUnit.self) { stock, _, _ in stock.units -= 1 }
                    .with(model: Stock())
                    .invariant("units never negative") { (stock: Stock) in stock.units >= 0 }
                    .named("stock")
                Store(model: Orders.self)
                    .mutate(on: OrderAction.self) { orders, action, send in
                        switch action {
                        case .place: orders.pending = true
                        case .ship:
                            guard orders.pending else { return }
                            orders.pending = false
                            try await send(TakeUnit())
                        case .cancel: orders.pending = false
                        }
                    }
                    .with(model: Orders())
                    .named("orders")
            }
        case "hang":
            return try await Bootstrap {
                Store(model: Depth.self)
                    .mutate(on: DeepAction.self) { depth, action, _ in
                        switch action {
                        case .step: depth.level += 1
                        case .surface: depth.level = 0
                        case .dive: if depth.level >= 4 { try await Task.sleep(for: .seconds(3_600)) }
                        }
                    }
                    .with(model: Depth())
                    .named("deep")
            }
        default:
            return try await Bootstrap {
                Store(model: Safe.self)
                    .mutate(on: SafeAction.self) { safe, action, _ in
                        switch action {
                        case .set(let code): safe.code = code
                        case .open(let code):
                            guard let set = safe.code else { return }
                            if code == set { throw SafeJammed() }
                            throw WrongCode()
                        }
                    }
                    .with(model: Safe())
                    .named("safe")
            }
        }
    }
}

await ExplorePlanted.main()
