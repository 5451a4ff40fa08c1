/// A value a JSON line holds: it writes its own JSON text.
///
/// Strings, integers, doubles, booleans, ``RawJSON`` (text from an
/// encoder, written as it is), ``JSONNull``, ``JSONText/Node``, arrays and
/// optionals of them (`nil` is `null`), and ``JSONObject``.
package protocol JSONValue {
    func appendJSON(to out: inout String)
}

/// A JSON object built for one line of output: its fields in the order
/// they were set, written with their keys sorted (as `JSONEncoder`'s
/// `.sortedKeys` would). Setting a field to `nil` removes it, as a
/// dictionary's subscript does, so an optional field is left out.
///
/// ```swift
/// var object: JSONObject = ["kind": "reply", "target": target, "value": ValueText.json(reply)]
/// object["line"] = location.line  // left out when nil
/// ```
package struct JSONObject: JSONValue, ExpressibleByDictionaryLiteral {
    /// The fields' keys, in the order they were set.
    package private(set) var keys: [String]
    /// Apart from the keys: finding a key compares strings and copies no value.
    private var values: [any JSONValue]

    package init(dictionaryLiteral elements: (String, any JSONValue)...) {
        keys = elements.map(\.0)
        values = elements.map(\.1)
    }

    package subscript(key: String) -> (any JSONValue)? {
        get { keys.firstIndex(of: key).map { values[$0] } }
        set {
            let index = keys.firstIndex(of: key)
            switch (index, newValue) {
            case (let index?, let value?):
                values[index] = value
            case (let index?, nil):
                keys.remove(at: index)
                values.remove(at: index)
            case (nil, let value?):
                keys.append(key)
                values.append(value)
            case (nil, nil):
                break
            }
        }
    }

    /// Adds `key` unless the object has it (a `nil` value adds nothing): the
    /// fields the shell puts on every line a command prints, in one search.
    package mutating func addIfAbsent(_ key: String, _ value: (any JSONValue)?) {
        guard let value, !keys.contains(key) else { return }
        keys.append(key)
        values.append(value)
    }

    package func appendJSON(to out: inout String) {
        out += "{"
        // A line has a dozen fields at most: an insertion sort of their positions.
        var order = Array(keys.indices)
        for index in order.indices.dropFirst() {
            let moving = order[index]
            var slot = index
            while slot > 0, keys[moving] < keys[order[slot - 1]] {
                order[slot] = order[slot - 1]
                slot -= 1
            }
            order[slot] = moving
        }
        // Through the buffer: a value is written where it lies, not copied out of the array.
        values.withUnsafeBufferPointer { values in
            for (position, index) in order.enumerated() {
                if position > 0 { out += "," }
                JSONLine.appendString(keys[index], to: &out)
                out += ":"
                values[index].appendJSON(to: &out)
            }
        }
        out += "}"
    }
}

/// JSON's `null`.
package struct JSONNull: JSONValue {
    package init() {}

    package func appendJSON(to out: inout String) { out += "null" }
}

extension String: JSONValue {
    package func appendJSON(to out: inout String) { JSONLine.appendString(self, to: &out) }
}

extension Int: JSONValue {
    package func appendJSON(to out: inout String) { out += String(self) }
}

extension Double: JSONValue {
    /// A number that is not finite has no JSON: it is written `null`.
    package func appendJSON(to out: inout String) { out += isFinite ? description : "null" }
}

extension Bool: JSONValue {
    package func appendJSON(to out: inout String) { out += self ? "true" : "false" }
}

extension RawJSON: JSONValue {
    package func appendJSON(to out: inout String) { out += text }
}

extension Array: JSONValue where Element: JSONValue {
    package func appendJSON(to out: inout String) {
        out += "["
        // By index: called through the protocol, unspecialized, where an iterator's type is looked up at run time.
        for index in indices {
            if index > 0 { out += "," }
            self[index].appendJSON(to: &out)
        }
        out += "]"
    }
}

extension Optional: JSONValue where Wrapped: JSONValue {
    package func appendJSON(to out: inout String) {
        if let self { self.appendJSON(to: &out) } else { out += "null" }
    }
}
