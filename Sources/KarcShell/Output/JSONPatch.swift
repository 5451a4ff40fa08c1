import Foundation

/// An RFC 6902 JSON Patch from one JSON document to another, for `--json`
/// `state` lines: a line grows with the change, not with the state.
///
/// Objects are compared key by key; arrays keep their common beginning and
/// end, and the middle becomes `replace` for the positions both have, then
/// `add` (or `remove`, from the end) for the rest, so appending one element
/// to 10,000 is one `add`. Paths are JSON Pointers (RFC 6901: `~0`, `~1`).
enum JSONPatch {
    /// A document as JSON values: `RawJSON` text parsed, a dictionary's
    /// values so too, anything else (a dump's text) as it is.
    static func tree(_ json: Any) -> Any {
        if let raw = json as? RawJSON { return parse(raw.text) ?? raw.text }
        if let object = json as? [String: Any] { return object.mapValues(tree) }
        return json
    }

    /// The documents as `JSONSerialization` parses them; each operation as
    /// its JSON text (`{"op":…,"path":…,"value":…}`), so a line writes it as is.
    static func patch(from old: Any, to new: Any) -> [RawJSON] {
        var operations: [RawJSON] = []
        diff(old, new, at: "", into: &operations)
        return operations
    }

    /// A document's JSON text parsed (a fragment is a document too); nil when it is not JSON.
    static func parse(_ text: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    private static func diff(_ old: Any, _ new: Any, at path: String, into operations: inout [RawJSON]) {
        if let before = old as? [String: Any], let after = new as? [String: Any] {
            for key in before.keys.sorted() where after[key] == nil {
                operations.append(operation("remove", path + "/" + escape(key)))
            }
            for key in after.keys.sorted() {
                // `key` comes from `after.keys`.
                let value = after[key]!
                if let previous = before[key] {
                    diff(previous, value, at: path + "/" + escape(key), into: &operations)
                } else {
                    operations.append(operation("add", path + "/" + escape(key), value: raw(value)))
                }
            }
            return
        }
        if let before = old as? [Any], let after = new as? [Any] {
            diffArrays(before, after, at: path, into: &operations)
            return
        }
        if !equal(old, new) {
            operations.append(operation("replace", path, value: raw(new)))
        }
    }

    private static func diffArrays(_ before: [Any], _ after: [Any], at path: String, into operations: inout [RawJSON]) {
        var prefix = 0
        while prefix < before.count, prefix < after.count, equal(before[prefix], after[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < before.count - prefix, suffix < after.count - prefix,
              equal(before[before.count - 1 - suffix], after[after.count - 1 - suffix]) {
            suffix += 1
        }
        let oldMiddle = before.count - prefix - suffix, newMiddle = after.count - prefix - suffix
        for offset in 0..<min(oldMiddle, newMiddle) {
            diff(before[prefix + offset], after[prefix + offset], at: "\(path)/\(prefix + offset)", into: &operations)
        }
        if newMiddle > oldMiddle {
            // Inserted in order, each before what follows it (the index of the end appends).
            for offset in oldMiddle..<newMiddle {
                operations.append(operation("add", "\(path)/\(prefix + offset)", value: raw(after[prefix + offset])))
            }
        } else if oldMiddle > newMiddle {
            // Removed from the last down, so the indexes of those still to go do not move.
            for offset in (newMiddle..<oldMiddle).reversed() {
                operations.append(operation("remove", "\(path)/\(prefix + offset)"))
            }
        }
    }

    /// Deep equality of parsed JSON values (`true` is not `1`, though both are `NSNumber`s).
    static func equal(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case (let x as String, let y as String):
            return x == y
        case (let x as NSNumber, let y as NSNumber):
            return isBoolean(x) == isBoolean(y) && x.isEqual(y)
        case (let x as [String: Any], let y as [String: Any]):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        case (let x as [Any], let y as [Any]):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }

    /// The class `JSONSerialization` gives `true` and `false`: how a boolean
    /// `NSNumber` is told from a number.
    private static let booleanType: AnyObject.Type? = (parse("true") as AnyObject?).map { type(of: $0) }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        booleanType.map { type(of: number) == $0 } ?? false
    }

    /// A JSON value as its text. Strings, numbers and null, most of what a
    /// patch carries, are written here; objects and arrays by `JSONSerialization`.
    private static func raw(_ value: Any) -> RawJSON {
        switch value {
        case let text as String:
            var out = ""
            JSONLine.appendString(text, to: &out)
            return RawJSON(text: out)
        case let number as NSNumber:
            return RawJSON(text: isBoolean(number) ? (number.boolValue ? "true" : "false") : number.stringValue)
        case is NSNull:
            return RawJSON(text: "null")
        default:
            let data = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])) ?? Data("null".utf8)
            return RawJSON(text: String(decoding: data, as: UTF8.self))
        }
    }

    /// One operation's text; its keys in sorted order, as every line writes them.
    private static func operation(_ op: String, _ path: String, value: RawJSON? = nil) -> RawJSON {
        var text = "{\"op\":\"\(op)\",\"path\":"
        JSONLine.appendString(path, to: &text)
        if let value { text += ",\"value\":" + value.text }
        return RawJSON(text: text + "}")
    }

    /// A key as a JSON Pointer token.
    static func escape(_ key: String) -> String {
        // Almost no key holds either: the common case is the key itself, without a search through Foundation.
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
