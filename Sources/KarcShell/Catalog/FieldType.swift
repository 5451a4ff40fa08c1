/// The type of a command's field, as the shell shows it and checks values against.
public indirect enum FieldType: Sendable, Equatable, CustomStringConvertible {
    case int
    case decimal
    case bool
    case string
    /// A list of values of one type (`[String]`).
    case list(FieldType)
    /// One of a fixed set of names (a `CaseIterable` enum): completion offers them.
    case choice(type: String, cases: [String])
    /// Anything else: written as a `{json}` object.
    case object(type: String)

    public var description: String {
        switch self {
        case .int: "Int"
        case .decimal: "Double"
        case .bool: "Bool"
        case .string: "String"
        case .list(let element): "[\(element)]"
        case .choice(let type, _): type
        case .object(let type): type
        }
    }

    /// The field type of a Swift type.
    static func of(_ type: Any.Type) -> FieldType {
        switch type {
        case is any BinaryInteger.Type: return .int
        case is any BinaryFloatingPoint.Type: return .decimal
        case is Bool.Type: return .bool
        case is String.Type, is Substring.Type, is Character.Type: return .string
        default: break
        }
        if let list = type as? any ListType.Type { return .list(of(list.elementType)) }
        if let optional = type as? any OptionalType.Type { return of(optional.wrappedType) }
        if let choice = type as? any CaseIterable.Type { return .choice(type: "\(type)", cases: caseNames(choice)) }
        return .object(type: "\(type)")
    }
}

/// The names a `CaseIterable` type's cases are written with: raw values
/// for string-backed enums, else the case names.
func caseNames<Cases: CaseIterable>(_ type: Cases.Type) -> [String] {
    type.allCases.map { value in
        if let raw = value as? any RawRepresentable { return "\(raw.rawValue)" }
        return "\(value)"
    }
}

/// Arrays, seen generically.
protocol ListType {
    static var elementType: Any.Type { get }
}

extension Array: ListType {
    static var elementType: Any.Type { Element.self }
}

/// Optionals, seen generically.
protocol OptionalType {
    static var wrappedType: Any.Type { get }
    /// The wrapped value, or nil.
    var wrapped: Any? { get }
}

extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
    var wrapped: Any? { self.map { $0 } }
}
