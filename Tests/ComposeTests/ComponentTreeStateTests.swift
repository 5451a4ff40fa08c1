// What a bound tree shows without a UI (`ComponentTree.state`, `changed`,
// `refused`): what the karc shell prints and diffs for a mounted tree.
import Compose
import Foundation
import KarcSynchronization
import Testing

struct ShopCatalog: Component {
    struct Filter: AnyState, Codable {
        var query = ""
    }

    let item = ShopItem()

    @Store var filter = Filter()
    @EnclosingRouter var router

    let search = ValueEmitter<String>()
    let openItem = SignalEmitter()
}

extension ShopCatalog {
    var observers: Void {
        search += { query in $filter.update { $0.query = query } }
        openItem += { router.push(\Self.item) }
    }
}

struct ShopItem: Component {
    let close = SignalEmitter()
    var observers: Void { None }
}

struct ShopReceipt: Component {
    let number: Int
    var observers: Void { None }
}

struct ShopComponent: RouterComponent {
    let catalog = ShopCatalog()
    let receipt = DynamicComponent<ShopReceipt>()
    let openReceipt = SignalEmitter()
    let buy = ValueEmitter<Int>()
    let router = Router(start: \Self.catalog)
}

extension ShopComponent {
    var observers: Void {
        openReceipt += { router.push(\Self.receipt) }
        buy += { number in
            receipt.create(ShopReceipt(number: number))
            router.push(\Self.receipt)
        }
        catalog.item.close += { router.pop() }
    }
}

struct BoardNote: Component {
    struct Text: AnyState {
        var body = ""
    }

    @Store var text = Text()
    var observers: Void { None }
}

struct Board: Component {
    let notes = InstanceComponent<BoardNote>()
    var observers: Void { None }
}

/// Counts how often an emitter fired.
final class Counter: Sendable {
    private let count = KarcMutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

@Suite(.timeLimit(.minutes(1))) struct ComponentTreeStateTests {
    @Test func aTreeShowsWhereItsRoutersAreAndWhatItsActiveStoresHold() {
        let shop = ComponentTree(root: ShopComponent())
        #expect(shop.state == ComponentTreeState(paths: ["router": ["catalog"]], stores: ["catalog.filter": ShopCatalog.Filter()]))

        shop.root.catalog.search.send("figs")
        #expect(shop.state.stores["catalog.filter"] as? ShopCatalog.Filter == ShopCatalog.Filter(query: "figs"))

        // Pushed through the catalog's @EnclosingRouter: a route from the router component, through the catalog.
        shop.root.catalog.openItem.send()
        #expect(shop.state.paths == ["router": ["catalog", "catalog.item"]])

        shop.root.catalog.item.close.send()
        #expect(shop.state.paths == ["router": ["catalog"]])
        shop.unbind()
        #expect(shop.state == ComponentTreeState())
    }

    @Test func aDynamicComponentIsShownUnderItsPropertyOnceMade() {
        let shop = ComponentTree(root: ShopComponent())
        shop.root.buy.send(7)
        #expect(shop.state.paths == ["router": ["catalog", "receipt"]])
        shop.unbind()
    }

    @Test func changedFiresOnceANavigationOrAStoreChangeIsOver() {
        let shop = ComponentTree(root: ShopComponent())
        let changes = Counter()
        let subscription = shop.changed.subscribe { changes.add() }
        shop.root.catalog.openItem.send()  // the push, the item becoming active: one run
        #expect(changes.value == 1)
        shop.root.catalog.search.send("figs")
        #expect(changes.value == 2)
        shop.root.catalog.search.send("figs")  // no change of the store's state: nothing to tell
        #expect(changes.value == 2)
        subscription.cancel()
        shop.unbind()
    }

    @Test func aRefusedNavigationIsTheTreesToReport() {
        let shop = ComponentTree(root: ShopComponent())
        let refusals = KarcMutex<[RouteError]>([])
        let subscription = shop.refused.subscribe { error in refusals.withLock { $0.append(error) } }
        shop.root.openReceipt.send()  // not created yet
        #expect(refusals.withLock { $0 } == [.notCreated(route: "\\ShopComponent.receipt")])
        #expect(shop.state.paths == ["router": ["catalog"]])
        subscription.cancel()
        shop.unbind()
    }

    @Test func storesOfComponentsNoRouterShowsAreNotInTheState() {
        let shop = ComponentTree(root: ShopComponent())
        shop.root.buy.send(1)
        // The catalog stays on the stack under the receipt: a navigation stack keeps it active.
        #expect(shop.state.stores.keys.sorted() == ["catalog.filter"])
        shop.unbind()
    }

    @Test func anInstancesStoresAreKeyedByItsId() throws {
        let board = ComponentTree(root: Board())
        let id = board.root.notes.create(BoardNote())
        let note = try #require(board.root.notes.instance(for: id))
        note.text.body = "milk"
        #expect(board.state.stores.keys.sorted() == ["notes[\(id.uuidString)].text"])
        #expect(board.state.stores["notes[\(id.uuidString)].text"] as? BoardNote.Text == BoardNote.Text(body: "milk"))
        board.root.notes.destroy(id)
        #expect(board.state == ComponentTreeState())
        board.unbind()
    }

    @Test func theEmittersOfATreeAreFoundByPath() {
        let paths = ComponentTree<ShopComponent>.emitters(of: ShopComponent()).map(\.path)
        #expect(paths == ["openReceipt", "buy", "catalog.search", "catalog.openItem", "catalog.item.close"])
    }

    @Test func aStateEncodesItsStoresAsTheyEncode() throws {
        let state = ComponentTreeState(paths: ["router": ["catalog"]], stores: ["catalog.filter": ShopCatalog.Filter(query: "figs")])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(state), as: UTF8.self)
        #expect(json == #"{"paths":{"router":["catalog"]},"stores":{"catalog.filter":{"query":"figs"}}}"#)
    }
}
