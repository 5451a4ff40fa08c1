import Foundation

/// Writes one JSON object on one line, keys sorted, from the values the
/// renderer builds (strings, `Int`, `Double`, `Bool`, `NSNull`, ``RawJSON``
/// from `JSONEncoder`, arrays and dictionaries of them). Faster than
/// `JSONSerialization.data(withJSONObject:)`, which bridges every
/// dictionary to `NSDictionary` and sorts through `AnyHashable`.
package enum JSONLine {
    package static func write(_ object: [String: Any]) -> String {
        var out = ""
        out.reserveCapacity(256)
        append(object, to: &out)
        return out
    }

    package static func append(_ value: Any, to out: inout String) {
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

    package static func appendString(_ string: String, to out: inout String) {
        out += "\""
        // Runs between the bytes that need escaping are copied whole; every such byte is ASCII,
        // so the runs start and end on scalar boundaries.
        let bytes = string.utf8
        let scalars = string.unicodeScalars
        var runStart = bytes.startIndex
        var index = runStart
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                bytes.formIndex(after: &index)
                continue
            }
            out += Substring(scalars[runStart..<index])
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\n"): out += "\\n"
            case UInt8(ascii: "\r"): out += "\\r"
            case UInt8(ascii: "\t"): out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            default:
                let hex = String(byte, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            bytes.formIndex(after: &index)
            runStart = index
        }
        out += Substring(scalars[runStart..<index])
        out += "\""
    }
}
