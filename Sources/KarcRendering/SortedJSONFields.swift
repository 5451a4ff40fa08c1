/// One JSON object written field by field in the order given, which is the
/// keys' sorted order: the text a ``JSONObject`` of the same fields writes,
/// for a line written after every command, with no keys to sort and no
/// value boxed. An optional field that is nil is left out, as a
/// ``JSONObject`` leaves it.
///
/// ```swift
/// var line = SortedJSONFields()
/// line.add("kind", "done")
/// line.add("seq", seq)  // left out when nil
/// sink.write(line.finish())
/// ```
package struct SortedJSONFields {
    private var out = "{"
    private var isEmpty = true
    #if DEBUG
    /// The key added last: each must sort after it.
    private var lastKey: String?
    #endif

    package init(capacity: Int = 256) {
        out.reserveCapacity(capacity)
    }

    /// Adds `key` (a plain key: no character JSON escapes) and `value`.
    package mutating func add(_ key: String, _ value: some JSONValue) {
        addKey(key)
        value.appendJSON(to: &out)
    }

    /// Adds `key` and `value`, unless `value` is nil.
    package mutating func add(_ key: String, _ value: (some JSONValue)?) {
        guard let value else { return }
        add(key, value)
    }

    /// Adds `key` and an array of what `write` writes for each of `elements`, comma-separated.
    package mutating func add<Element>(_ key: String, each elements: [Element], _ write: (Element, inout SortedJSONFields) -> Void) {
        addKey(key)
        out += "["
        for (index, element) in elements.enumerated() {
            if index > 0 { out += "," }
            // The element's object goes on in this text: moved into it and back, not copied.
            var fields = SortedJSONFields(capacity: 0)
            swap(&fields.out, &out)
            fields.out += "{"
            write(element, &fields)
            out = fields.finish()
        }
        out += "]"
    }

    /// The object's text.
    package consuming func finish() -> String {
        out += "}"
        return out
    }

    private mutating func addKey(_ key: String) {
        #if DEBUG
        assert(lastKey.map { $0 < key } ?? true, "\(key) is added after \(lastKey ?? ""): fields go in their keys' order")
        assert(!key.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }, "\(key) needs escaping")
        lastKey = key
        #endif
        out += isEmpty ? "\"" : ",\""
        isEmpty = false
        out += key
        out += "\":"
    }
}
