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

    // The scalars of every line, without a generic call: an optional of a
    // generic value looks its type's metadata up at run time, every field.

    /// Adds `key` and `value`, a string.
    package mutating func add(_ key: String, _ value: String) {
        addKey(key)
        JSONLine.appendString(value, to: &out)
    }

    /// Adds `key` and `value`, unless `value` is nil.
    package mutating func add(_ key: String, _ value: String?) {
        if let value { add(key, value) }
    }

    /// Adds `key` and `value`, an integer.
    package mutating func add(_ key: String, _ value: Int) {
        addKey(key)
        out += String(value)
    }

    /// Adds `key` and `value`, unless `value` is nil.
    package mutating func add(_ key: String, _ value: Int?) {
        if let value { add(key, value) }
    }

    /// Adds `key` and `value`, `true` or `false`.
    package mutating func add(_ key: String, _ value: Bool) {
        addKey(key)
        out += value ? "true" : "false"
    }

    /// Adds `key` and `value`, unless `value` is nil (one that is not finite is `null`).
    package mutating func add(_ key: String, _ value: Double?) {
        guard let value else { return }
        addKey(key)
        value.appendJSON(to: &out)
    }

    /// Adds `key` and an array of `count` objects, the fields of each
    /// written by `write` (given its index): not generic over an element
    /// type, so no metadata is looked up for one.
    package mutating func add(_ key: String, objects count: Int, _ write: (Int, inout SortedJSONFields) -> Void) {
        addKey(key)
        out += "["
        for index in 0..<count {
            if index > 0 { out += "," }
            // The element's object goes on in this text: moved into it and back, not copied.
            var fields = SortedJSONFields(capacity: 0)
            swap(&fields.out, &out)
            fields.out += "{"
            write(index, &fields)
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
