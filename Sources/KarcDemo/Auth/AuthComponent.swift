import Compose

/// The demo's component tree (the Compose seed's auth flow, without its
/// views): log in or sign up, chosen by the buttons under the routed screen
/// (`openLogIn`, `openSignUp`); resetting a password is pushed from the
/// log-in screen through its `@EnclosingRouter`. Mounted in the demo
/// cluster as the target `auth`.
struct AuthComponent: RouterComponent {
    let logIn = LogInComponent()
    let signUp = SignUpComponent()

    let openSignUp = SignalEmitter()
    let openLogIn = SignalEmitter()

    let router = Router(start: \Self.logIn)
}

extension AuthComponent {
    var observers: Void {
        openSignUp += { router.replace(\Self.signUp) }
        openLogIn += { router.replace(\Self.logIn) }
    }
}
