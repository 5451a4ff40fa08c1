import Compose
import KarcCommand

/// Pushed from the log-in screen: asks for an email address to send a reset link to.
struct ResetPasswordComponent: Component {
    @Memberwise
    struct Form: AnyState, Codable {
        var email = ""
        /// Whether the link was sent.
        var sent = false
    }

    @Store var form = Form()

    let email = ValueEmitter<String>()
    let send = SignalEmitter()
    let goBack = SignalEmitter()
}

extension ResetPasswordComponent {
    var observers: Void {
        email += { email in $form.update { $0.email = email } }
        send += { $form.update { $0.sent = $0.email.contains("@") } }
    }
}
