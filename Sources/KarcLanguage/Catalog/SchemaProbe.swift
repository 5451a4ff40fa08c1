import Foundation

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
package enum SchemaProbe {
    package struct Probed {
        package let fields: [FieldSchema]
        /// The value decoded from placeholders: its optional fields hold their defaults.
        package let sample: any Decodable
    }

    package static func probe(_ type: any Decodable.Type) throws -> Probed {
        try probe(type, log: FieldLog())
    }

    private static func probe(_ type: any Decodable.Type, log: FieldLog) throws -> Probed {
        let sample = try type.init(from: ProbeDecoder(log: log, records: true))
        return Probed(fields: log.fields, sample: sample)
    }

    /// A case of an enum, probed: its coding key, and its associated values
    /// as fields (nil when its `init(from:)` rejects the placeholders).
    package struct ProbedCase {
        package let key: String
        package let probed: Probed?
    }

    /// The cases of a `Decodable` enum decoded the way Swift synthesizes it
    /// (`{"login": {"email": …}}`): one keyed container whose single key
    /// names the case, and a nested container of its values. `nil` when
    /// `type` is not an enum or its keys cannot be listed.
    package static func cases(of type: any Decodable.Type) -> [ProbedCase]? {
        guard EnumCases.isEnum(type) else { return nil }
        let log = FieldLog()
        _ = try? type.init(from: ProbeDecoder(log: log, records: true))
        guard let keys = log.caseKeys, !keys.isEmpty else { return nil }
        let cases = keys.map { key in
            let caseLog = FieldLog()
            caseLog.selectedCase = key
            let probed = try? probe(type, log: caseLog)
            return ProbedCase(key: key, probed: caseLog.openedCase ? probed : nil)
        }
        // Not decoded case by case after all (a hand-written init): no case was read through its key.
        return cases.contains { $0.probed != nil } ? cases : nil
    }

    /// The questions asked at the top level, in order, each name once.
    package final class FieldLog {
        private(set) var fields: [FieldSchema] = []
        /// The case the top-level container reports as its only key (probing one case of an enum).
        package var selectedCase: String?
        /// The keys the top-level container is decoded with, when they can be listed.
        package var caseKeys: [String]?
        /// Whether the selected case was read (its key, or its nested container).
        package var openedCase = false

        /// How deep in nested types this log is (their fields are probed up to a few levels).
        package let depth: Int

        package init(depth: Int = 0) { self.depth = depth }

        package func record(_ name: String, _ type: any Decodable.Type, isRequired: Bool) {
            guard !fields.contains(where: { $0.name == name }) else { return }
            let fieldType = FieldType.of(type)
            var nested: [FieldSchema]?
            if case .object = fieldType, depth < 4 {
                let unwrapped = (type as? any OptionalType.Type)?.wrappedType as? any Decodable.Type ?? type
                nested = try? SchemaProbe.probe(unwrapped, log: FieldLog(depth: depth + 1)).fields
            }
            fields.append(FieldSchema(name: name, type: fieldType, isRequired: isRequired, defaultValue: nil, fields: nested))
        }
    }

    package struct ProbeDecoder: Decoder {
        package let log: FieldLog
        /// Only the top-level keyed container's keys are the command's fields.
        package let records: Bool
        package var codingPath: [any CodingKey] = []
        package var userInfo: [CodingUserInfoKey: Any] { [:] }

        package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            if records, log.caseKeys == nil { log.caseKeys = EnumCases.all(type)?.map(\.stringValue) }
            return KeyedDecodingContainer(KeyedProbe<Key>(log: log, records: records))
        }

        package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            UnkeyedProbe()
        }

        package func singleValueContainer() throws -> any SingleValueDecodingContainer {
            SingleProbe(log: log)
        }
    }

    /// A placeholder of `type`.
    package static func placeholder<T: Decodable>(_ type: T.Type, log: FieldLog) throws -> T {
        if let value = ("" as String) as? T ?? (false as Bool) as? T { return value }
        if let integer = type as? any BinaryInteger.Type, let zero = zeroInteger(integer) as? T { return zero }
        if let decimal = type as? any BinaryFloatingPoint.Type, let zero = zeroDecimal(decimal) as? T { return zero }
        // Types whose own `init(from:)` rejects an empty string or a zero.
        if let value = Date(timeIntervalSince1970: 0) as? T ?? UUID() as? T ?? Decimal.zero as? T { return value }
        if let url = URL(string: "https://example.com") as? T { return url }
        if let first = EnumCases.all(type)?.first { return first }
        return try T(from: ProbeDecoder(log: log, records: false))
    }

    private static func zeroInteger<I: BinaryInteger>(_ type: I.Type) -> I { 0 }
    private static func zeroDecimal<F: BinaryFloatingPoint>(_ type: F.Type) -> F { 0 }

    package struct KeyedProbe<Key: CodingKey>: KeyedDecodingContainerProtocol {
        package let log: FieldLog
        package let records: Bool
        /// The values of the enum case being probed (not the container that selects it).
        package var isCase = false
        package var codingPath: [any CodingKey] { [] }
        /// Empty, or the one case selected when an enum's case is probed.
        package var allKeys: [Key] {
            guard records, !isCase, let selected = log.selectedCase, let key = Key(stringValue: selected) else { return [] }
            // A case without values may be decoded from its key alone (no nested container).
            log.openedCase = true
            return [key]
        }

        package func contains(_ key: Key) -> Bool { true }
        package func decodeNil(forKey key: Key) throws -> Bool { false }

        package func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if records { log.record(key.stringValue, type, isRequired: true) }
            return try SchemaProbe.placeholder(type, log: log)
        }

        package func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            absent(type, key)
        }

        // The primitive forms have default implementations that would call
        // `decodeNil` and `decode`, recording the field as required.
        package func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { absent(type, key) }
        package func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { absent(type, key) }
        package func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { absent(type, key) }
        package func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { absent(type, key) }
        package func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { absent(type, key) }
        package func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { absent(type, key) }
        package func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { absent(type, key) }
        package func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { absent(type, key) }
        package func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { absent(type, key) }
        package func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { absent(type, key) }
        package func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { absent(type, key) }
        package func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { absent(type, key) }
        package func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { absent(type, key) }
        package func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { absent(type, key) }

        private func absent<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
            if records { log.record(key.stringValue, type, isRequired: false) }
            return nil
        }

        package func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            // The selected case's values are the command's fields.
            if records, !isCase, let selected = log.selectedCase, key.stringValue == selected {
                log.openedCase = true
                return KeyedDecodingContainer(KeyedProbe<NestedKey>(log: log, records: true, isCase: true))
            }
            return KeyedDecodingContainer(KeyedProbe<NestedKey>(log: log, records: false))
        }

        package func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            UnkeyedProbe()
        }

        package func superDecoder() throws -> any Decoder { ProbeDecoder(log: log, records: false) }
        package func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(log: log, records: false) }
    }

    /// An empty list.
    package struct UnkeyedProbe: UnkeyedDecodingContainer {
        package var codingPath: [any CodingKey] { [] }
        package var count: Int? { 0 }
        package var isAtEnd: Bool { true }
        package var currentIndex: Int { 0 }

        package func decodeNil() throws -> Bool { true }

        package func decode<T: Decodable>(_ type: T.Type) throws -> T {
            throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "empty placeholder list"))
        }

        package func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "empty placeholder list"))
        }

        package func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { self }
        package func superDecoder() throws -> any Decoder {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "empty placeholder list"))
        }
    }

    package struct SingleProbe: SingleValueDecodingContainer {
        package let log: FieldLog
        package var codingPath: [any CodingKey] { [] }

        package func decodeNil() -> Bool { false }

        package func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try SchemaProbe.placeholder(type, log: log)
        }
    }
}
