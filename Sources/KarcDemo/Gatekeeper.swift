import Trellis

/// The seed's gatekeeper (Trellis classic): while nobody is signed in, it
/// redirects every article action to a `SignInRequired` notice, so the
/// action is blocked, visibly, instead of silently doing nothing.
package struct Gatekeeper: Trellis.Middleware {
    let identity: IdentityModel

    package func pre(action: any Articles.Action) async throws -> Rewrite<any Sendable> {
        await identity.isSignedIn ? .none : .redirect(to: .single(action: SignInRequired()))
    }
}

/// What a blocked article action is replaced with. The identity store takes
/// it (and leaves its state alone); it is `Encodable` only, so the shell does
/// not offer it as a command.
package struct SignInRequired: Sendable, Encodable, CustomStringConvertible {
    package var reason = "sign in first: identity.login email=… password=…"
    package var description: String { "SignInRequired(\(reason))" }
}
