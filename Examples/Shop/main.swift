// README-SHOP-BEGIN
import KarcCommand
import KarcShellTrellis
import Trellis

struct Cart: Equatable, Sendable, Codable { var items: [String: Int] = [:] }

/// What the cart takes: each case is a command (`cart.add name=apple`).
@Command  // fields with a default may be left out; doc comments become :help
enum CartAction: Action, Codable {
    /// Puts something in the cart.
    case add(name: String, quantity: Int = 1)
    case clear
}

/// The shop's shell: `shop`, `shop script.karc`, `shop check`, `shop explore`, …
struct Shop: TrellisShellApp {
    static let name = "shop"

    static func cluster(for launch: ClusterLaunch<Shop>) async throws -> Cluster {
        try await Bootstrap {
            Store(model: Cart.self)
                .mutate(on: CartAction.self) { cart, action, _ in
                    switch action {
                    case .add(let name, let quantity): cart.items[name, default: 0] += quantity
                    case .clear: cart.items = [:]
                    }
                }
                .with(model: Cart())
                .named("cart")
        }
    }
}

await Shop.main()
// README-SHOP-END
