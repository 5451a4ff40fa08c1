import Foundation

/// Writes one JSON object on one line, keys sorted, from the values the
/// renderer builds (strings, `Int`, `Double`, `Bool`, `NSNull`, ``RawJSON``
/// from `JSONEncoder`, arrays and dictionaries of them). Faster than
/// `JSONSerialization.data(withJSONObject:)`, which bridges every
/// dictionary to `NSDictionary` and sorts through `AnyHashable`.
enum JSONLine {
    static func write(_ object: [String: Any]) -> String {
        var out = ""
        out.reserveCapacity(256)
        append(object, to: &out)
        return out
    }

    static func append(_ value: Any, to out: inout String) {
        switch value {
        case let string as String:
            appendString(string, to: &out)
        case let raw as RawJSON:
            out += raw.text
        case let bool as Bool:
            out += bool ? "true" : "false"
        case let int as Int:
            out += String(int)
        case let double as Double:
            out += double.isFinite ? "\(double)" : "null"
        case let dictionary as [String: Any]:
            out += "{"
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                appendString(key, to: &out)
                out += ":"
                // `key` comes from `dictionary.keys`.
                append(dictionary[key]!, to: &out)
            }
            out += "}"
        case let array as [Any]:
            out += "["
            for (index, element) in array.enumerated() {
                if index > 0 { out += "," }
                append(element, to: &out)
            }
            out += "]"
        case is NSNull:
            out += "null"
        default:
            appendString("\(value)", to: &out)
        }
    }

    static func appendString(_ string: String, to out: inout String) {
        out += "\""
        // Most strings need no escaping: copied whole, not scalar by scalar.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += string
            out += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
