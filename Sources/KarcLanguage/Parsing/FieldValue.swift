import Foundation

/// A command's field values once checked against their types: what
/// `init(from:)` decodes.
package enum FieldValue {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case string(String)
    case list([FieldValue])
    case object([String: FieldValue])
    case date(Date)
    /// Foundation's `Decimal`, exactly as typed.
    case exactDecimal(Decimal)
    /// A numeric raw value of an enum case, as typed.
    case rawNumber(String)
    /// A `{json}` value, as `JSONSerialization` parsed it: only `JSONDecoder` reads these.
    case parsed(Any)

    /// The value as `JSONSerialization` takes it.
    package var jsonObject: Any {
        switch self {
        case .int(let value): value
        case .double(let value): value
        case .bool(let value): value
        case .string(let value): value
        case .list(let items): items.map(\.jsonObject)
        case .object(let fields): fields.mapValues(\.jsonObject)
        // `JSONDecoder`'s default for dates: seconds since 2001.
        case .date(let date): date.timeIntervalSinceReferenceDate
        case .exactDecimal(let number): NSDecimalNumber(decimal: number)
        case .rawNumber(let text): NSDecimalNumber(string: text, locale: Locale(identifier: "en_US_POSIX"))
        case .parsed(let object): object
        }
    }
}
