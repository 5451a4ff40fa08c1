import KarcLanguage

/// Turns a state the shell kept as a snapshot (``StateSnapshot``) back into
/// a value of the state's type, for `:undo`.
///
/// A snapshot holds the state's own values: each field that has no long
/// list inside, and each element of a long list. The state's `Decodable`
/// initializer is run over the snapshot's fields and elements, and wherever
/// it asks for a value of the type the snapshot holds there, it gets that
/// value itself: nothing is encoded, and a 10,000-element list is 10,000
/// casts. A snapshot that is not a ``SnapshotNode`` is the value already.
package enum SnapshotValue {
    /// Why a snapshot cannot be made a value of its type again.
    package enum Failure: Error, CustomStringConvertible {
        /// The state keeps a long list and its type is not `Decodable`.
        case notDecodable(type: String)
        /// The snapshot holds a value of another type than the one wanted.
        case otherType(wanted: String, held: String)
        /// The type's `Decodable` initializer asked for what the snapshot does not hold.
        case mismatch(type: String, reason: String)

        package var description: String {
            switch self {
            case .notDecodable(let type):
                "its state holds a long list (kept in parts) and \(type) is not Decodable, so it cannot be put together again"
            case .otherType(let wanted, let held): "the state kept is a \(held), not a \(wanted)"
            case .mismatch(let type, let reason): "\(type) could not be put together from its parts (\(reason))"
            }
        }
    }

    /// The value of type `type` the snapshot `snapshot` was taken of.
    package static func value(of snapshot: Any, as type: Any.Type) throws -> Any {
        guard SnapshotNode.in(snapshot) != nil else {
            guard Swift.type(of: snapshot) == type else { throw Failure.otherType(wanted: "\(type)", held: "\(Swift.type(of: snapshot))") }
            return snapshot
        }
        guard let decodable = type as? any Decodable.Type else { throw Failure.notDecodable(type: "\(type)") }
        do {
            return try SnapshotDecoder.decode(decodable, from: snapshot, at: [])
        } catch let error as DecodingError {
            throw Failure.mismatch(type: "\(type)", reason: Self.reason(error))
        }
    }

    private static func reason(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "at \(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// A `Decoder` over a snapshot's parts (see ``SnapshotValue``).
struct SnapshotDecoder: Decoder {
    let node: Any
    let codingPath: [any CodingKey]
    /// The type whose `init(from:)` reads this decoder, when known: its
    /// single value is not looked for as that type again (a `String` asking
    /// for a `String` where a list is held would ask forever).
    var decoding: Any.Type?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// `node` when it is a `T`, else `T` decoded from its parts.
    static func decode<T: Decodable>(_ type: T.Type, from node: Any, at path: [any CodingKey]) throws -> T {
        if let held = node as? T { return held }
        return try T(from: SnapshotDecoder(node: node, codingPath: path, decoding: T.self))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let fields: [Mirror.Child]
        if let snapshot = SnapshotNode.in(node), let kept = snapshot.fields {
            fields = kept
        } else {
            let mirror = ValueChildren.mirror(node)
            guard mirror.displayStyle == .struct || mirror.displayStyle == .class else { throw mismatch(Key.self, "fields") }
            fields = ValueChildren.children(of: node, mirror)
        }
        return KeyedDecodingContainer(SnapshotKeyed<Key>(fields: fields, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if let snapshot = SnapshotNode.in(node), let elements = snapshot.elements {
            return SnapshotUnkeyed(elements: elements, codingPath: codingPath)
        }
        guard let elements = node as? any ContiguousElements else { throw mismatch([Any].self, "a list") }
        return SnapshotUnkeyed(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SnapshotSingle(node: node, codingPath: codingPath, decoding: decoding)
    }

    private func mismatch(_ type: Any.Type, _ wanted: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "wanted \(wanted), the state holds a \(Swift.type(of: node))"))
    }
}

/// A struct's fields, by their labels (a wrapped property's `_name` as `name`).
private struct SnapshotKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [Mirror.Child]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { fields.compactMap { $0.label.flatMap { Key(stringValue: $0.hasPrefix("_") ? String($0.dropFirst()) : $0) } } }

    private func value(_ key: Key) -> Any? {
        fields.first { $0.label == key.stringValue }?.value ?? fields.first { $0.label == "_" + key.stringValue }?.value
    }

    private func required(_ key: Key) throws -> Any {
        guard let value = value(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "the state has no field '\(key.stringValue)'"))
        }
        return value
    }

    func contains(_ key: Key) -> Bool { value(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = value(key) else { return true }
        return (value as? any OptionalType).map { $0.wrapped == nil } ?? false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try SnapshotDecoder.decode(type, from: try required(key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try SnapshotDecoder(node: try required(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try SnapshotDecoder(node: try required(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "a subclass's state cannot be put together from parts"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        SnapshotDecoder(node: try required(key), codingPath: codingPath + [key])
    }
}

/// A list's elements, in order.
private struct SnapshotUnkeyed: UnkeyedDecodingContainer {
    let elements: any ContiguousElements
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: any ContiguousElements, codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> Any {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath, debugDescription: "the list has \(Names.counted(elements.count, "element"))"))
        }
        defer { currentIndex += 1 }
        return elements.element(at: currentIndex)
    }

    private var key: any CodingKey { IndexKey(intValue: currentIndex) }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, (elements.element(at: currentIndex) as? any OptionalType).map({ $0.wrapped == nil }) ?? false else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let path = codingPath + [key]
        return try SnapshotDecoder.decode(type, from: try next(), at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let path = codingPath + [key]
        return try SnapshotDecoder(node: try next(), codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = codingPath + [key]
        return try SnapshotDecoder(node: try next(), codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let path = codingPath + [key]
        return SnapshotDecoder(node: try next(), codingPath: path)
    }
}

/// One value, taken as it is held.
private struct SnapshotSingle: SingleValueDecodingContainer {
    let node: Any
    let codingPath: [any CodingKey]
    let decoding: Any.Type?

    func decodeNil() -> Bool { (node as? any OptionalType).map { $0.wrapped == nil } ?? false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let held = node as? T { return held }
        guard T.self != decoding else {
            throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "the state holds a \(Swift.type(of: node))"))
        }
        // A wrapper decoding what it wraps (an optional's value) goes on into its parts.
        return try SnapshotDecoder.decode(type, from: node, at: codingPath)
    }
}

/// A list element's place in a coding path.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
