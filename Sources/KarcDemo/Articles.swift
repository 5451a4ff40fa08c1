import Compose
import Trellis

/// `articles`: a list of articles, a value model kept by its store.
public struct Articles: Equatable, Sendable, Codable {
    public struct Article: Equatable, Sendable, Codable {
        public var id: Int
        public var title: String
        public var likes = 0

        public init(id: Int, title: String, likes: Int = 0) {
            self.id = id
            self.title = title
            self.likes = likes
        }
    }

    public var items: [Article] = []
    var nextID = 1

    public init() {}

    /// The actions the gatekeeper guards.
    public protocol Action: Sendable {}

    /// `articles.add title=String`
    public struct Add: Action, Codable {
        public var title: String

        public init(title: String) { self.title = title }
    }

    /// `articles.like id=Int`
    public struct Like: Action, Codable {
        public var id: Int

        public init(id: Int) { self.id = id }
    }

    /// `articles.remove id=Int`
    public struct Remove: Action, Codable {
        public var id: Int

        public init(id: Int) { self.id = id }
    }

    mutating func add(_ add: Add) throws {
        let validation = Validation { Field(add.title, named: "title", rules: .nonEmpty, .length(1...90)) }
        guard validation.isValid else { throw InvalidInput(errors: validation.errors) }
        items.append(Article(id: nextID, title: add.title))
        nextID += 1
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

public struct NoSuchArticle: Error, CustomStringConvertible {
    public let id: Int
    public let known: [Int]
    public var description: String {
        "no article #\(id)" + (known.isEmpty ? " (there are none)" : "; articles: " + known.map { "#\($0)" }.joined(separator: ", "))
    }
}
