import Compose
import KarcCommand

/// The log-in screen: its form, and a reset-password screen it pushes on
/// the router that shows it.
struct LogInComponent: Component {
    @Memberwise
    struct Form: AnyState, Codable {
        var email = ""
        var password = ""
        /// What is wrong with the form, once submitted; nil when nothing is.
        var problem: String?
    }

    let resetPassword = ResetPasswordComponent()

    @EnclosingRouter var router

    @Store var form = Form()

    let email = ValueEmitter<String>()
    let password = ValueEmitter<String>()
    let submit = SignalEmitter()
    let openResetPassword = SignalEmitter()
}

extension LogInComponent {
    var observers: Void {
        email += { email in $form.update { $0.email = email } }
        password += { password in $form.update { $0.password = password } }
        submit += {
            $form.update { form in
                form.problem =
                    !form.email.contains("@") ? "enter an email address" : form.password.count < 6 ? "a password has 6 characters or more" : nil
            }
        }
        openResetPassword += { router.push(\Self.resetPassword) }
        resetPassword.goBack += { router.pop() }
    }
}
