/// A route: a key path from a router component to what it shows.
// Proof for @unchecked: every route is made from a `KeyPath & Sendable` the API takes, or by appending
// two such (`EnclosingRoute.push`); a key path is immutable, and a Sendable one captures only Sendable values.
struct RouteKey: @unchecked Sendable, Equatable {
    let path: AnyKeyPath

    /// The route as written after `\Self.`: `logIn`, `logIn.resetPassword`, `self`.
    var name: String {
        let written = "\(path)"  // `\AuthComponent.logIn.resetPassword`
        let root = "\\\(type(of: path).rootType)."
        return written.hasPrefix(root) ? String(written.dropFirst(root.count)) : written
    }
}
