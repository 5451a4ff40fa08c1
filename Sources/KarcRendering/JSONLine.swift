/// Writes one JSON object on one line, keys sorted. Every value is typed
/// (``JSONValue``): a line is written by one call per value, with no
/// dynamic cast and no hashing, because the shell writes one or two lines
/// for every command of a piped script.
package enum JSONLine {
    package static func write(_ object: JSONObject) -> String {
        var out = ""
        out.reserveCapacity(256)
        object.appendJSON(to: &out)
        return out
    }

    package static func appendString(_ string: String, to out: inout String) {
        out += "\""
        // Most strings (keys, names, ids) need no escaping: copied whole.
        if !string.utf8.contains(where: needsEscaping) {
            out += string
            out += "\""
            return
        }
        // Runs between the bytes that need escaping are copied whole; every such byte is ASCII,
        // so the runs start and end on scalar boundaries.
        let bytes = string.utf8
        let scalars = string.unicodeScalars
        var runStart = bytes.startIndex
        var index = runStart
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard needsEscaping(byte) else {
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

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}
