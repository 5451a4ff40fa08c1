import Compose
import KarcCommand

// A tree's state as a generated test writes it: `ComponentTreeState(paths: […], stores: […])`,
// each store's state with its own initializer (`@Memberwise` on it). By hand, not with the
// macro: Compose builds without swift-syntax, and this module has both.
extension ComponentTreeState: MemberwiseInitializable {
    /// `init(paths:stores:)`.
    public static var memberwiseInitializer: MemberwiseInitializer {
        MemberwiseInitializer([.init(label: "paths", field: "paths"), .init(label: "stores", field: "stores")])
    }
}
