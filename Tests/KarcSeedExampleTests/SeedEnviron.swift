// Step 5 of the seed README, with the resources and gateways it leaves to the reader.
import Karc
import KarcAsync
import KarcSynchronization
import Synchronization

protocol StorageResource: Resource {
    func readAccount() async -> Account?
    func saveAccount(_ account: Account) async
    func deleteAccount() async
}

protocol WebResource: Resource {
    func register(userEmail: String, userPassword: String) async throws -> Account
    func unregister(account: Account) async throws
    func swap(messages: [EncryptedMessage], account: Account) async throws -> [EncryptedMessage]
}

final class StorageTestGateway: StorageResource {
    private let account = KarcMutex<Account?>(nil)
    init() {}
    func readAccount() async -> Account? { account.withLock { $0 } }
    func saveAccount(_ account: Account) async { self.account.withLock { $0 = account } }
    func deleteAccount() async { account.withLock { $0 = nil } }
}

final class WebTestGateway: WebResource {
    init() {}
    func register(userEmail: String, userPassword: String) async throws -> Account {
        Account(email: userEmail, password: userPassword)
    }
    func unregister(account: Account) async throws {}
    func swap(messages: [EncryptedMessage], account: Account) async throws -> [EncryptedMessage] {
        messages
    }
}

typealias StorageProdGateway = StorageTestGateway
typealias WebProdGateway = WebTestGateway

/// The seed names a `ChildModel` submodel without defining it.
struct ChildState: Equatable, Initable, Sendable {}
@CheckedSendable
final class ChildDomain: Domain<DefaultId, ChildState, Never, Never> {}
@CheckedSendable
final class ChildModel: Model<ChildDomain, DefaultId, ChildState, Never, Never, Never> {}

struct Environs {

    static let prod = Environ()
        .register(StorageResource.self, gatewayType: StorageProdGateway.self)
        .register(WebResource.self, gatewayType: WebProdGateway.self)
    // other dependencies

    static let test = Environ()
        .register(StorageResource.self, gatewayType: StorageTestGateway.self)
        .register(WebResource.self, gatewayType: WebTestGateway.self)
    // other dependencies

}
