// The "drive your own cluster" example of README.md, verbatim between the
// markers; ShellReadmeTests checks that README.md still shows exactly this code.
// README-SHELL-BEGIN
import KarcShell
import Trellis

struct Cart: Equatable, Sendable, Codable { var items: [String] = [] }
struct AddItem: Sendable, Codable { var name: String }

func runShop(commands: [String]) async throws -> Int32 {
    let cluster = try await Bootstrap {
        Store(model: Cart.self)
            .mutate(on: AddItem.self) { cart, add, _ in cart.items.append(add.name) }
            .with(model: Cart())
            .named("cart")
    }
    var options = ShellOptions()
    options.echo = true
    let status = await Shell.run(ClusterShell(name: "shop", cluster: cluster), options: options, commands: commands)
    await cluster.shutDown()
    return status  // 0 when every command succeeded
}
// README-SHELL-END
