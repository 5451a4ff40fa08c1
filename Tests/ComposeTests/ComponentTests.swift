// The Compose seed README's components, routers, dynamic, instance and
// startup components and services (their non-view parts), with the
// mechanical changes of docs/porting.md: `let router = Router(…)` for
// `@ObservedObject var router`, `ValueEmitter<T>()` for `Emitter<T>()`,
// `static let Name`.
import Compose
import Foundation
import Synchronization
import Testing

/// What the components saw, in order.
final class Journal: Sendable {
    private let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
    func clear() { entries.withLock { $0 = [] } }
}

let journal = Journal()

// MARK: The auth flow: a router component, replace, and @EnclosingRouter push and pop.

struct ResetPasswordComponent: Component {
    let goBack = SignalEmitter()
}

extension ResetPasswordComponent {
    var observers: Void {
        didAppear += { journal.add("reset password appeared") }
        didDisappear += { journal.add("reset password disappeared") }
    }
}

struct LogInComponent: Component {
    let resetPassword = ResetPasswordComponent()

    @EnclosingRouter var router

    let openSignUp = SignalEmitter()
    let openResetPassword = SignalEmitter()
    /// Counted only while log-in is active.
    let ping = SignalEmitter()
}

extension LogInComponent {
    var observers: Void {
        didAppear += { journal.add("log in appeared") }
        didDisappear += { journal.add("log in disappeared") }
        ping += { journal.add("log in ping") }
        openResetPassword += {
            router.push(\Self.resetPassword)
        }
        resetPassword.goBack += {
            router.pop()
        }
    }
}

struct SignUpComponent: Component {
    let openLogIn = SignalEmitter()
}

extension SignUpComponent {
    var observers: Void {
        didAppear += { journal.add("sign up appeared") }
    }
}

struct AuthComponent: RouterComponent {
    let logIn = LogInComponent()
    let signUp = SignUpComponent()

    let router = Router(start: \Self.logIn)
}

extension AuthComponent {
    var observers: Void {
        logIn.openSignUp {
            router.replace(\Self.signUp)
        }

        signUp.openLogIn {
            router.replace(\Self.logIn)
        }
    }
}

// MARK: A dynamic component.

struct ProfileObject: Sendable {
    let fullName: String
}

struct EditProfileComponent: Component {
    let profile: ProfileObject

    let close = SignalEmitter()
}

extension EditProfileComponent {
    var observers: Void {
        didAppear += { [profile] in journal.add("editing \(profile.fullName)") }
    }
}

struct ProfileComponent: RouterComponent {
    let editProfile = DynamicComponent<EditProfileComponent>()

    let router = Router(start: \Self.self)

    let openEditProfile = ValueEmitter<ProfileObject>()
}

extension ProfileComponent {
    var observers: Void {
        openEditProfile += { profileToEdit in
            // Create an instance of an underlying component
            editProfile.create(EditProfileComponent(profile: profileToEdit))

            // Present the instance using routing
            router.push(\Self.editProfile)
        }
        editProfile.didCreate += { journal.add("created") }
        editProfile.didDestroy += { journal.add("destroyed") }
    }
}

// MARK: Instances, startup, services.

struct PlayerComponent: Component {
    let title: String
    let play = SignalEmitter()
}

extension PlayerComponent {
    var observers: Void {
        play += { [title] in journal.add("playing \(title)") }
    }
}

struct LibraryComponent: Component {
    let players = InstanceComponent<PlayerComponent>()
}

extension LibraryComponent {
    var observers: Void { None }
}

struct UserService: Service {
    static let Name = "storyline.user"
    let created = UUID()

    func login() { journal.add("user logged in") }
}

extension Services {
    var user: UserService {
        get { self[UserService.self] }
        set { self[UserService.self] = newValue }
    }
}

struct AppComponent: RouterComponent {
    let auth = AuthComponent()
    let profile = ProfileComponent()

    let router = Router(start: \Self.auth)
}

extension AppComponent {
    var observers: Void {
        auth.signUp.openLogIn += { services.user.login() }
    }
}

extension AppComponent: StartupComponent {
    func willBindRootComponent() { journal.add("will bind") }
    func didBindRootComponent() { journal.add("did bind") }
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct ComponentTests {
    init() { journal.clear() }

    @Test func bindingTheRootActivatesTheRoutedComponentsBetweenTheStartupHooks() {
        let app = ComponentTree(root: AppComponent())
        #expect(journal.all == ["will bind", "log in appeared", "did bind"])
        #expect(app.root.router.path == \AppComponent.auth)
        #expect(app.root.auth.router.path == \AuthComponent.logIn)
        app.unbind()
    }

    @Test func replacingTheRouteMakesTheOldComponentInactiveAndEndsItsObservations() {
        let app = ComponentTree(root: AppComponent())
        let auth = app.root.auth
        auth.logIn.ping.send()
        auth.logIn.openSignUp.send()
        #expect(auth.router.paths == [\AuthComponent.signUp])
        auth.logIn.ping.send()  // log-in is inactive: its observation ended
        #expect(journal.all.suffix(3) == ["log in ping", "log in disappeared", "sign up appeared"])
        #expect(journal.all.filter { $0 == "log in ping" }.count == 1)

        auth.signUp.openLogIn.send()
        #expect(auth.router.path == \AuthComponent.logIn)
        #expect(journal.all.suffix(2) == ["user logged in", "log in appeared"])  // the app observed first (it subscribed first)
        auth.logIn.ping.send()  // active again: observed again
        #expect(journal.all.filter { $0 == "log in ping" }.count == 2)
        app.unbind()
    }

    @Test func anEnclosedComponentPushesAndPopsOnTheRouterAroundIt() {
        let app = ComponentTree(root: AppComponent())
        let auth = app.root.auth
        auth.logIn.openResetPassword.send()
        #expect(auth.router.paths == [\AuthComponent.logIn, \AuthComponent.logIn.resetPassword])
        #expect(auth.router.lastNavigationAnimated)
        #expect(journal.all.last == "reset password appeared")
        auth.logIn.ping.send()  // under the top of the stack, still active
        #expect(journal.all.last == "log in ping")

        auth.logIn.resetPassword.goBack.send()
        #expect(auth.router.paths == [\AuthComponent.logIn])
        #expect(journal.all.last == "reset password disappeared")
        #expect(!auth.router.pop())  // the root stays
        app.unbind()
    }

    @Test func aDynamicComponentIsCreatedBeforeItIsShownAndDestroyedWhenPopped() {
        let app = ComponentTree(root: AppComponent())
        app.root.router.replace(\AppComponent.profile)
        let profile = app.root.profile
        #expect(profile.router.path == \ProfileComponent.self)

        let refusals = Mutex<[RouteError]>([])
        let token = profile.router.refused.observe { error in refusals.withLock { $0.append(error) } }
        #expect(!profile.router.push(\ProfileComponent.editProfile))  // not created yet: refused, not a crash
        #expect(refusals.withLock { $0 } == [.notCreated(route: "\\ProfileComponent.editProfile")])
        #expect(profile.router.paths == [\ProfileComponent.self])
        token.cancel()

        profile.openEditProfile.send(ProfileObject(fullName: "Ada Lovelace"))
        #expect(journal.all.suffix(2) == ["created", "editing Ada Lovelace"])
        #expect(profile.editProfile.component?.profile.fullName == "Ada Lovelace")

        profile.router.popToRoot()
        #expect(journal.all.last == "destroyed")
        #expect(profile.editProfile.component == nil)
        app.unbind()
    }

    @Test func instancesAreActiveWhileTheirHolderIsAndDestroyedWithIt() {
        let library = ComponentTree(root: LibraryComponent())
        let players = library.root.players
        let created = Mutex<[UUID]>([])
        let destroyed = Mutex<[UUID]>([])
        let creating = players.didCreate.observe { id in created.withLock { $0.append(id) } }
        let watching = players.didDestroy.observe { id in destroyed.withLock { $0.append(id) } }

        let first = players.create(PlayerComponent(title: "first"))
        let second = players.create(PlayerComponent(title: "second"))
        #expect(created.withLock { $0 } == [first, second])
        players.instance(for: second)?.play.send()
        #expect(journal.all.last == "playing second")

        players.destroy(first)
        players.instance(for: second)?.play.send()
        #expect(players.ids == [second])
        library.unbind()
        #expect(destroyed.withLock { $0 } == [first, second])
        #expect(players.ids.isEmpty)
        watching.cancel()
        creating.cancel()
    }

    @Test func servicesAreCreatedOnceOnFirstUseAndShared() {
        let first = Services().user
        #expect(Services().user.created == first.created)
        Services()[UserService.self] = UserService()
        #expect(Services().user.created != first.created)
    }

    @Test func anEnclosingRouterWithNoRouterAroundRefusesToPush() {
        let alone = ComponentTree(root: LogInComponent())
        alone.root.openResetPassword.send()  // no router around: nothing happens, nothing crashes
        #expect(!alone.root.router.push(\LogInComponent.resetPassword))
        alone.unbind()
    }
}
