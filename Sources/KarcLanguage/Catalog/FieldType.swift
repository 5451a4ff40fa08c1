import Foundation

/// The type of a command's field, as the shell shows it and checks values against.
public indirect enum FieldType: Sendable, Equatable, CustomStringConvertible {
    /// A whole number.
    case int
    /// `Double` (and other binary floating-point types but `Float`).
    case decimal
    /// A floating-point number.
    case float
    /// Foundation's `Decimal`: kept exactly as written.
    case exactDecimal
    /// `true` or `false`.
    case bool
    /// Text.
    case string
    /// `Date`: ISO 8601 (`2026-11-23`, `2026-11-23T10:30:00Z`) or seconds since 1970.
    case date
    /// A UUID.
    case uuid
    /// A URL.
    case url
    /// A list of values of one type (`[String]`).
    case list(FieldType)
    /// `[String: T]`: `{json}`, or one key at a time (`labels.env=prod`).
    case dictionary(FieldType)
    /// One of a fixed set of cases (an enum without payloads): completion offers them.
    case choice(Choice)
    /// Anything else: a `{json}` object, or its fields one at a time (`address.city=Paris`).
    case object(type: String)

    /// The cases of an enum field: written as their raw values or names.
    public struct Choice: Sendable, Equatable {
        /// The type's name, as the shell shows it.
        public let type: String
        /// What each case is written as: its raw value, else its name.
        public let cases: [String]
        /// Each case's name (the same as `cases` for a `String` enum without explicit raw values).
        public let names: [String]
        /// How a case goes into the command.
        public let encoding: Encoding

        /// How a value of the field is written.
        public enum Encoding: Sendable, Equatable {
            /// A `String` raw value.
            case text
            /// A numeric raw value.
            case number
            /// No raw value: Swift encodes the case as `{"name": {}}`.
            case caseKey
        }

        /// The case `typed` names: a raw value, else a case name (case-insensitive).
        package func match(_ typed: String) -> String? {
            if cases.contains(typed) { return typed }
            if let index = names.firstIndex(of: typed) ?? names.firstIndex(where: { Names.matches(typed, $0) }) {
                return cases[index]
            }
            return cases.first { Names.matches(typed, $0) }
        }
    }

    /// A choice of `String` cases written as themselves.
    public static func choice(type: String, cases: [String]) -> FieldType {
        .choice(Choice(type: type, cases: cases, names: cases, encoding: .text))
    }

    public var description: String {
        switch self {
        case .int: "Int"
        case .decimal: "Double"
        case .float: "Float"
        case .exactDecimal: "Decimal"
        case .bool: "Bool"
        case .string: "String"
        case .date: "Date"
        case .uuid: "UUID"
        case .url: "URL"
        case .list(let element): "[\(element)]"
        case .dictionary(let value): "[String: \(value)]"
        case .choice(let choice): choice.type
        case .object(let type): type
        }
    }

    /// The field type of a Swift type.
    package static func of(_ type: Any.Type) -> FieldType {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Date.self): return .date
        case ObjectIdentifier(UUID.self): return .uuid
        case ObjectIdentifier(URL.self): return .url
        case ObjectIdentifier(Decimal.self): return .exactDecimal
        case ObjectIdentifier(Float.self): return .float
        default: break
        }
        switch type {
        case is any BinaryInteger.Type: return .int
        case is any BinaryFloatingPoint.Type: return .decimal
        case is Bool.Type: return .bool
        case is String.Type, is Substring.Type, is Character.Type: return .string
        default: break
        }
        if let list = type as? any ListType.Type { return .list(of(list.elementType)) }
        if let dictionary = type as? any StringKeyedType.Type { return .dictionary(of(dictionary.valueType)) }
        if let optional = type as? any OptionalType.Type { return of(optional.wrappedType) }
        if let choice = choice(of: type) { return .choice(choice) }
        return .object(type: "\(type)")
    }

    /// The cases of an enum without payloads, as a field takes them.
    package static func choice(of type: Any.Type) -> Choice? {
        guard let values = EnumCases.all(type), !values.isEmpty else { return nil }
        var cases: [String] = []
        var names: [String] = []
        var encoding = Choice.Encoding.caseKey
        for value in values {
            let name = EnumCases.name(of: value)
            names.append(name)
            if let raw = value as? any RawRepresentable {
                let rawValue = raw.rawValue
                encoding = rawValue is String ? .text : .number
                cases.append("\(rawValue)")
            } else {
                cases.append(name)
            }
        }
        return Choice(type: "\(type)", cases: cases, names: names, encoding: encoding)
    }
}

/// Arrays, seen generically.
package protocol ListType {
    static var elementType: Any.Type { get }
}

extension Array: ListType {
    package static var elementType: Any.Type { Element.self }
}

/// Dictionaries keyed by strings, seen generically.
package protocol StringKeyedType {
    static var valueType: Any.Type { get }
}

extension Dictionary: StringKeyedType where Key == String {
    package static var valueType: Any.Type { Value.self }
}

/// Optionals, seen generically.
package protocol OptionalType {
    static var wrappedType: Any.Type { get }
    /// The wrapped value, or nil.
    var wrapped: Any? { get }
}

extension Optional: OptionalType {
    package static var wrappedType: Any.Type { Wrapped.self }
    package var wrapped: Any? { self.map { $0 } }
}
