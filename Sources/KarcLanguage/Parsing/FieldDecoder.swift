import Foundation

/// Decodes a command straight from its field values.
///
/// The shell used to write the fields as JSON and run `JSONDecoder` on it;
/// that round trip was a fifth of what a command cost. This decoder reads
/// the values directly and covers what plain commands are made of: numbers,
/// strings, booleans, dates, decimals, lists, optionals, enums and nested
/// `Decodable` types built from those. For anything else (a `{json}` value,
/// `URL` and `Data`, which `JSONDecoder` treats specially), and
/// for every error, it gives up: the caller then takes the JSON path, so
/// values and error messages are always `JSONDecoder`'s.
package struct FieldDecoder: Decoder {
    /// Why this decoder stopped; the JSON path takes over.
    package struct GaveUp: Error {}

    package let value: FieldValue
    package let codingPath: [any CodingKey]
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// `type` decoded from `fields`; `nil` when only `JSONDecoder` can say.
    package static func decode(_ type: any (Decodable & Sendable).Type, from value: FieldValue) -> (any Sendable)? {
        try? type.init(from: FieldDecoder(value: value, codingPath: []))
    }

    /// `type` decoded from the fields of a command.
    package static func decode(_ type: any (Decodable & Sendable).Type, from fields: [String: FieldValue]) -> (any Sendable)? {
        decode(type, from: .object(fields))
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else { throw GaveUp() }
        return KeyedDecodingContainer(Keyed(fields: fields, codingPath: codingPath))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .list(let items) = value else { throw GaveUp() }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }

    /// One value as `type`: a primitive read directly, anything else through its own `init(from:)`.
    package static func decode<T: Decodable>(_ type: T.Type, from value: FieldValue, at path: [any CodingKey]) throws -> T {
        // Type identity, not casts: this runs for every field of every command.
        let id = ObjectIdentifier(type)
        if id == ObjectIdentifier(URL.self) || id == ObjectIdentifier(Data.self) { throw GaveUp() }
        if id == ObjectIdentifier(Date.self) {
            guard case .date(let date) = value, let result = date as? T else { throw GaveUp() }
            return result
        }
        if id == ObjectIdentifier(Decimal.self) {
            guard case .exactDecimal(let number) = value, let result = number as? T else { throw GaveUp() }
            return result
        }
        if id == ObjectIdentifier(Float.self) {
            let number: Float
            switch value {
            case .int(let integer): number = Float(integer)
            case .double(let double): number = Float(double)
            default: throw GaveUp()
            }
            guard let result = number as? T else { throw GaveUp() }
            return result
        }
        switch type {
        case is Bool.Type:
            guard case .bool(let flag) = value, let result = flag as? T else { throw GaveUp() }
            return result
        case is String.Type:
            guard case .string(let text) = value, let result = text as? T else { throw GaveUp() }
            return result
        case is Double.Type:
            let number: Double
            switch value {
            case .int(let integer): number = Double(integer)
            case .double(let double): number = double
            default: throw GaveUp()
            }
            guard let result = number as? T else { throw GaveUp() }
            return result
        case let integer as any FixedWidthInteger.Type:
            switch value {
            case .int(let number):
                guard let result = integer.init(exactly: number) as? T else { throw GaveUp() }
                return result
            case .rawNumber(let text):
                guard let result = integer.init(text, radix: 10) as? T else { throw GaveUp() }
                return result
            default: throw GaveUp()
            }
        default:
            if case .parsed = value { throw GaveUp() }
            return try T(from: FieldDecoder(value: value, codingPath: path))
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let fields: [String: FieldValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

        // Fields given as nil are left out of `fields`, so a present field is never null.
        func decodeNil(forKey key: Key) throws -> Bool {
            guard contains(key) else { throw GaveUp() }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let value = fields[key.stringValue] else { throw GaveUp() }
            return try FieldDecoder.decode(type, from: value, at: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            guard case .object(let nested)? = fields[key.stringValue] else { throw GaveUp() }
            return KeyedDecodingContainer(Keyed<NestedKey>(fields: nested, codingPath: codingPath + [key]))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            guard case .list(let items)? = fields[key.stringValue] else { throw GaveUp() }
            return Unkeyed(items: items, codingPath: codingPath + [key])
        }

        func superDecoder() throws -> any Decoder { throw GaveUp() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw GaveUp() }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let items: [FieldValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(items: [FieldValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { throw GaveUp() }
            return false
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else { throw GaveUp() }
            let value = try FieldDecoder.decode(type, from: items[currentIndex], at: codingPath + [Index(currentIndex)])
            currentIndex += 1
            return value
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw GaveUp()
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw GaveUp() }
        mutating func superDecoder() throws -> any Decoder { throw GaveUp() }
    }

    private struct Single: SingleValueDecodingContainer {
        let value: FieldValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try FieldDecoder.decode(type, from: value, at: codingPath)
        }
    }

    private struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }
}
