import Compose
import KarcCommand

/// The sign-up screen: an email address, and a log-in button of its own.
struct SignUpComponent: Component {
    @Memberwise
    struct Form: AnyState, Codable {
        var email = ""
    }

    @Store var form = Form()

    let email = ValueEmitter<String>()
    let openLogIn = SignalEmitter()
}

extension SignUpComponent {
    var observers: Void {
        email += { email in $form.update { $0.email = email } }
    }
}
