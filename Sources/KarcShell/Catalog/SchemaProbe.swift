/// Learns a `Decodable` type's fields by decoding it once from a decoder
/// that answers every question with a placeholder and writes the question
/// down: each `decode(_:forKey:)` is a required field of that type, each
/// `decodeIfPresent` an optional one. No hand-written schema, no reflection.
///
/// Placeholders: 0, false, "", empty lists, the first case of a
/// `CaseIterable` type, and nested types probed the same way. A type whose
/// `init(from:)` rejects the placeholders (a validating initializer, a
/// non-`CaseIterable` enum) cannot be probed; the shell then accepts it as
/// `{json}` only.
enum SchemaProbe {
    struct Probed {
        let fields: [FieldSchema]
        /// The value decoded from placeholders: its optional fields hold their defaults.
        let sample: any Decodable
    }

    static func probe(_ type: any Decodable.Type) throws -> Probed {
        let log = FieldLog()
        let sample = try type.init(from: ProbeDecoder(log: log, records: true))
        return Probed(fields: log.fields, sample: sample)
    }

    /// The questions asked at the top level, in order, each name once.
    final class FieldLog {
        private(set) var fields: [FieldSchema] = []

        func record(_ name: String, _ type: Any.Type, isRequired: Bool) {
            guard !fields.contains(where: { $0.name == name }) else { return }
            fields.append(FieldSchema(name: name, type: .of(type), isRequired: isRequired, defaultValue: nil))
        }
    }

    struct ProbeDecoder: Decoder {
        let log: FieldLog
        /// Only the top-level keyed container's keys are the command's fields.
        let records: Bool
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(KeyedProbe<Key>(log: log, records: records))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            UnkeyedProbe()
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            SingleProbe(log: log)
        }
    }

    /// A placeholder of `type`.
    static func placeholder<T: Decodable>(_ type: T.Type, log: FieldLog) throws -> T {
        if let value = ("" as String) as? T ?? (false as Bool) as? T { return value }
        if let integer = type as? any BinaryInteger.Type, let zero = zeroInteger(integer) as? T { return zero }
        if let decimal = type as? any BinaryFloatingPoint.Type, let zero = zeroDecimal(decimal) as? T { return zero }
        if let cases = type as? any CaseIterable.Type, let first = firstCase(cases) as? T {
            return first
        }
        return try T(from: ProbeDecoder(log: log, records: false))
    }

    private static func zeroInteger<I: BinaryInteger>(_ type: I.Type) -> I { 0 }
    private static func zeroDecimal<F: BinaryFloatingPoint>(_ type: F.Type) -> F { 0 }

    private static func firstCase<Cases: CaseIterable>(_ type: Cases.Type) -> Any? {
        type.allCases.first
    }

    struct KeyedProbe<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let log: FieldLog
        let records: Bool
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if records { log.record(key.stringValue, type, isRequired: true) }
            return try SchemaProbe.placeholder(type, log: log)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            absent(type, key)
        }

        // The primitive forms have default implementations that would call
        // `decodeNil` and `decode`, recording the field as required.
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { absent(type, key) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { absent(type, key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { absent(type, key) }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { absent(type, key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { absent(type, key) }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { absent(type, key) }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { absent(type, key) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { absent(type, key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { absent(type, key) }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { absent(type, key) }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { absent(type, key) }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { absent(type, key) }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { absent(type, key) }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { absent(type, key) }

        private func absent<T>(_ type: T.Type, _ key: Key) -> T? {
            if records { log.record(key.stringValue, type, isRequired: false) }
            return nil
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(KeyedProbe<NestedKey>(log: log, records: false))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            UnkeyedProbe()
        }

        func superDecoder() throws -> any Decoder { ProbeDecoder(log: log, records: false) }
        func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(log: log, records: false) }
    }

    /// An empty list.
    struct UnkeyedProbe: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }

        func decodeNil() throws -> Bool { true }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "empty placeholder list"))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "empty placeholder list"))
        }

        func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { self }
        func superDecoder() throws -> any Decoder {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "empty placeholder list"))
        }
    }

    struct SingleProbe: SingleValueDecodingContainer {
        let log: FieldLog
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try SchemaProbe.placeholder(type, log: log)
        }
    }
}
