import Foundation
import KarcRendering

/// Where a state in a snapshot file does not fit its type, in a user's
/// words: `counter.count: 9223372036854775808 does not fit in Int`,
/// `articles.items[0].likes: expected Int, found a string`.
///
/// Foundation's `JSONDecoder` reads the file; when it refuses, its error
/// may name no place (a number too large, a fraction for an `Int`: "The
/// given data was not valid JSON"). The type's `init(from:)` is then run
/// again over the JSON as ``JSONScan`` read it, through a decoder that
/// knows each value's path and how the file wrote it.
package enum SnapshotFit {
    /// A place in the state and what is wrong there, or a whole message.
    package struct Misfit: Error {
        package let message: String

        package init(_ path: [StatePath.Step], _ problem: String) {
            message = StatePath.text(path) + ": " + problem
        }

        package init(message: String) { self.message = message }
    }

    /// Why `json`, the state of `target` in a file, is no `type`; nil when it fits after all.
    package static func misfit<T: Decodable>(_ type: T.Type, json: JSONScan.Value, target: String) -> String? {
        do {
            _ = try decode(type, from: json, at: [.field(target)], codingPath: [])
            return nil
        } catch let misfit as Misfit {
            return misfit.message
        } catch let error as DecodingError {
            return describe(error, target: target)
        } catch {
            return "\(target): \(error)"
        }
    }

    /// `Int`, `KarcDemo.CounterStore.State`, `Array<KarcDemo.Articles.Article>`:
    /// a type with its module, but the standard library's without it.
    package static func name(_ type: Any.Type) -> String {
        String(reflecting: type).replacingOccurrences(of: "Swift.", with: "")
    }

    /// A `DecodingError` the type's own `init(from:)` threw, at its coding path.
    package static func describe(_ error: DecodingError, target: String) -> String {
        func place(_ path: [any CodingKey]) -> String {
            StatePath.text([.field(target)] + path.map { key in key.intValue.map { .index($0) } ?? .field(key.stringValue) })
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "the field \(place(context.codingPath + [key])) is new (the file has no value for it)"
        case .typeMismatch(let type, let context):
            return "\(place(context.codingPath)): expected \(name(type))"
        case .valueNotFound(let type, let context):
            return "\(place(context.codingPath)): expected \(name(type)), found null"
        case .dataCorrupted(let context) where context.codingPath.isEmpty && context.underlyingError == nil:
            // Foundation's words for a value its decoder cannot take, wherever it is ("The given data was not valid JSON").
            return "\(target): a value does not fit the type (JSONDecoder: \(context.debugDescription))"
        case .dataCorrupted(let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    package static func decode<T: Decodable>(_ type: T.Type, from json: JSONScan.Value, at path: [StatePath.Step], codingPath: [any CodingKey]) throws
        -> T
    {
        // What `JSONDecoder` reads in its own way (a date, base-64 data, a URL as a string): read by it.
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
            do {
                return try JSONDecoder().decode(T.self, from: Data(json.text.utf8))
            } catch {
                throw Misfit(path, "expected \(name(T.self)), found \(json.described)")
            }
        }
        return try T(from: FitDecoder(json: json, path: path, codingPath: codingPath, decoding: T.self))
    }
}

/// A `Dictionary`, whose keys are written `["key"]` in a path, not as fields.
private protocol KeyedByValues {}
extension Dictionary: KeyedByValues {}

/// A `Decoder` over one JSON value (see ``SnapshotFit``).
private struct FitDecoder: Decoder {
    package let json: JSONScan.Value
    package let path: [StatePath.Step]
    package let codingPath: [any CodingKey]
    /// The type whose `init(from:)` reads this decoder: its single value is not looked for as that type again.
    package let decoding: Any.Type?
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = json else {
            let what = decoding.map { " (\(SnapshotFit.name($0)))" } ?? ""
            throw SnapshotFit.Misfit(path, "expected an object\(what), found \(json.described)")
        }
        return KeyedDecodingContainer(
            FitKeyed<Key>(fields: fields, path: path, codingPath: codingPath, byValue: decoding.map { $0 is any KeyedByValues.Type } ?? false))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = json else { throw SnapshotFit.Misfit(path, "expected a list, found \(json.described)") }
        return FitUnkeyed(items: items, path: path, codingPath: codingPath)
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer {
        FitSingle(json: json, path: path, codingPath: codingPath, decoding: decoding)
    }
}

private struct FitKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    package let fields: [(key: String, value: JSONScan.Value)]
    package let path: [StatePath.Step]
    package let codingPath: [any CodingKey]
    /// A dictionary's keys, not a struct's fields.
    package let byValue: Bool

    package var allKeys: [Key] { fields.compactMap { Key(stringValue: $0.key) } }

    package func contains(_ key: Key) -> Bool { value(key) != nil }

    private func value(_ key: Key) -> JSONScan.Value? {
        fields.last { $0.key == key.stringValue }?.value
    }

    private func step(_ key: Key) -> StatePath.Step {
        byValue ? .key(key.stringValue) : .field(key.stringValue)
    }

    private func required(_ key: Key) throws -> JSONScan.Value {
        guard let value = value(key) else {
            throw SnapshotFit.Misfit(message: "the field \(StatePath.text(path + [step(key)])) is new (the file has no value for it)")
        }
        return value
    }

    package func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = value(key) else { return true }
        if case .null = value { return true }
        return false
    }

    package func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try SnapshotFit.decode(type, from: try required(key), at: path + [step(key)], codingPath: codingPath + [key])
    }

    package func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }

    package func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(key).unkeyedContainer()
    }

    package func superDecoder() throws -> any Decoder {
        FitDecoder(json: .object(fields), path: path, codingPath: codingPath, decoding: nil)
    }

    package func superDecoder(forKey key: Key) throws -> any Decoder {
        try decoder(key)
    }

    private func decoder(_ key: Key) throws -> FitDecoder {
        FitDecoder(json: try required(key), path: path + [step(key)], codingPath: codingPath + [key], decoding: nil)
    }
}

private struct FitUnkeyed: UnkeyedDecodingContainer {
    package let items: [JSONScan.Value]
    package let path: [StatePath.Step]
    package let codingPath: [any CodingKey]
    package private(set) var currentIndex = 0

    package init(items: [JSONScan.Value], path: [StatePath.Step], codingPath: [any CodingKey]) {
        self.items = items
        self.path = path
        self.codingPath = codingPath
    }

    package var count: Int? { items.count }
    package var isAtEnd: Bool { currentIndex >= items.count }

    private struct Index: CodingKey {
        package let intValue: Int?
        package var stringValue: String { "\(intValue ?? 0)" }
        package init(intValue: Int) { self.intValue = intValue }
        package init?(stringValue: String) { nil }
    }

    private mutating func next() throws -> (JSONScan.Value, [StatePath.Step], [any CodingKey]) {
        guard !isAtEnd else {
            throw SnapshotFit.Misfit(path, "expected more than the \(items.count) element\(items.count == 1 ? "" : "s") the list has")
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], path + [.index(currentIndex)], codingPath + [Index(intValue: currentIndex)])
    }

    package mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = items[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    package mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (item, path, codingPath) = try next()
        return try SnapshotFit.decode(type, from: item, at: path, codingPath: codingPath)
    }

    package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (item, path, codingPath) = try next()
        return try FitDecoder(json: item, path: path, codingPath: codingPath, decoding: nil).container(keyedBy: type)
    }

    package mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (item, path, codingPath) = try next()
        return try FitDecoder(json: item, path: path, codingPath: codingPath, decoding: nil).unkeyedContainer()
    }

    package mutating func superDecoder() throws -> any Decoder {
        let (item, path, codingPath) = try next()
        return FitDecoder(json: item, path: path, codingPath: codingPath, decoding: nil)
    }
}

/// One value: a string, a number as the type takes it, a Boolean, or a value
/// whose type reads it through its own `init(from:)`.
private struct FitSingle: SingleValueDecodingContainer {
    package let json: JSONScan.Value
    package let path: [StatePath.Step]
    package let codingPath: [any CodingKey]
    package let decoding: Any.Type?

    package func decodeNil() -> Bool {
        if case .null = json { return true }
        return false
    }

    package func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let expected = "expected \(SnapshotFit.name(T.self)), found \(json.described)"
        switch json {
        case .string(let string) where T.self == String.self:
            if let string = string as? T { return string }
        case .bool(let bool) where T.self == Bool.self:
            if let bool = bool as? T { return bool }
        case .number(let text):
            if let integerType = T.self as? any FixedWidthInteger.Type {
                let value: any FixedWidthInteger = try integer(text, as: integerType)
                guard let value = value as? T else { throw SnapshotFit.Misfit(path, expected) }
                return value
            }
            if T.self == Double.self, let value = Double(text), value.isFinite, let value = value as? T { return value }
            if T.self == Float.self, let value = Float(text), value.isFinite, let value = value as? T { return value }
            if T.self == Double.self || T.self == Float.self {
                throw SnapshotFit.Misfit(path, "\(text) does not fit in \(SnapshotFit.name(T.self))")
            }
        default: break
        }
        // A type of its own (a raw-value enum, a wrapper) reads its value its way; a primitive asked for here is the wrong kind.
        let primitives: [Any.Type] = [String.self, Bool.self, Double.self, Float.self]
        if T.self == decoding || primitives.contains(where: { $0 == T.self }) || T.self is any FixedWidthInteger.Type {
            throw SnapshotFit.Misfit(path, expected)
        }
        return try SnapshotFit.decode(type, from: json, at: path, codingPath: codingPath)
    }

    /// `text` as an `I`, as `JSONDecoder` takes it (`3.0` and `1e3` are whole numbers too), or why not.
    private func integer<I: FixedWidthInteger>(_ text: String, as type: I.Type) throws -> I {
        if let value = I(text) { return value }
        let doesNotFit = SnapshotFit.Misfit(path, "\(text) does not fit in \(SnapshotFit.name(I.self))")
        // Digits alone that `I` does not take are out of its range (through a Double, -2^63 - 1 would round into it).
        guard text.contains(where: { ".eE".contains($0) }) else { throw doesNotFit }
        guard let double = Double(text), double == double.rounded() else {
            throw SnapshotFit.Misfit(path, "expected \(SnapshotFit.name(I.self)), found a fraction (\(text))")
        }
        guard let value = I(exactly: double) else { throw doesNotFit }
        return value
    }
}
