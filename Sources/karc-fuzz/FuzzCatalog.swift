import Foundation
import KarcLanguage
import KarcSession

/// Commands with a field of every type the shell reads, for the fuzz targets.
enum FuzzCatalog {
    enum Priority: Int, Codable, Sendable {
        case low = 1
        case high = 3
    }

    enum Status: String, Codable, Sendable {
        case open
        case shipped = "SHIPPED"
    }

    struct Address: Codable, Sendable {
        var city: String
        var zip: String?
    }

    struct Everything: Codable, Sendable {
        var small: Int8
        var unsigned: UInt
        var big: Int64?
        var ratio: Double
        var weight: Float?
        var flag: Bool
        var name: String
        var at: Date?
        var id: UUID?
        var site: URL?
        var total: Decimal?
        var priority: Priority?
        var status: Status?
        var tags: [String]?
        var labels: [String: Int]?
        var address: Address?
        var matrix: [[Int]]?
    }

    enum Wish: Codable, Sendable {
        case want(thing: String, count: Int)
        case forget(String, always: Bool)
        case nothing
    }

    struct Empty: Codable, Sendable {}

    static let catalog = Catalog(targets: [
        TargetSchema(name: "all", kind: "store", commands: [CommandSchema(Everything.self), CommandSchema(Empty.self)]),
        TargetSchema(name: "wish", kind: "store", commands: CommandSchema.commands(for: Wish.self), events: ["Wished"]),
    ])
}
