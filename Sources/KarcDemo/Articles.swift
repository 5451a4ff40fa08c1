import Compose
import KarcCommand
import Trellis

/// `articles`: a list of articles, a value model kept by its store.
/// `@Memberwise`: a test `karc export-test` writes builds it in Swift.
@Memberwise
package struct Articles: Equatable, Sendable, Codable {
    @Memberwise
    package struct Article: Equatable, Sendable, Codable {
        package var id: Int
        package var title: String
        package var likes = 0

        package init(id: Int, title: String, likes: Int = 0) {
            self.id = id
            self.title = title
            self.likes = likes
        }
    }

    package var items: [Article] = []
    var nextID = 1
    /// Whose articles these are: the user who signed in last (`identity.login` loads them).
    package var owner: String?

    /// The articles of `owner`, none at first; `nextID` is the id the next one added gets.
    package init(items: [Article] = [], nextID: Int = 1, owner: String? = nil) {
        self.items = items
        self.nextID = nextID
        self.owner = owner
    }

    /// The actions the gatekeeper guards.
    package protocol Action: Sendable {}

    /// Adds an article (signed in only: the gatekeeper refuses a guest).
    @Command
    package struct Add: Action, Codable {
        /// Its title, 1 to 90 characters.
        package var title: String

        package init(title: String) { self.title = title }
    }

    /// Likes an article once more.
    @Command
    package struct Like: Action, Codable {
        /// The article's id.
        package var id: Int

        package init(id: Int) { self.id = id }
    }

    /// Removes an article.
    @Command
    package struct Remove: Action, Codable {
        /// The article's id.
        package var id: Int

        package init(id: Int) { self.id = id }
    }

    /// Loads a user's articles (what `identity.login` sends on its own; the demo keeps them in memory).
    @Command
    package struct Load: Action, Codable {
        /// The user whose articles they are.
        package var owner: String

        package init(owner: String) { self.owner = owner }
    }

    mutating func add(_ add: Add) throws {
        let validation = Validation { Field(add.title, named: "title", rules: .nonEmpty, .length(1...90)) }
        guard validation.isValid else { throw InvalidInput(errors: validation.errors) }
        items.append(Article(id: nextID, title: add.title))
        nextID += 1
    }

    mutating func load(_ load: Load) {
        owner = load.owner
    }

    mutating func like(_ like: Like) throws {
        items[try index(of: like.id)].likes += 1
    }

    mutating func remove(_ remove: Remove) throws {
        items.remove(at: try index(of: remove.id))
    }

    private func index(of id: Int) throws -> Int {
        guard let index = items.firstIndex(where: { $0.id == id }) else {
            throw NoSuchArticle(id: id, known: items.map(\.id))
        }
        return index
    }
}

package struct NoSuchArticle: Error, CustomStringConvertible {
    package let id: Int
    package let known: [Int]
    package var description: String {
        "no article #\(id)" + (known.isEmpty ? " (there are none)" : "; articles: " + known.map { "#\($0)" }.joined(separator: ", "))
    }
}
