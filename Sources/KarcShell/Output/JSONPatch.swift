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

    /// The documents as `JSONSerialization` parses them.
    static func patch(from old: Any, to new: Any) -> [[String: Any]] {
        var operations: [[String: Any]] = []
        diff(old, new, at: "", into: &operations)
        return operations
    }

    /// A document's JSON text parsed (a fragment is a document too); nil when it is not JSON.
    static func parse(_ text: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    private static func diff(_ old: Any, _ new: Any, at path: String, into operations: inout [[String: Any]]) {
        if let before = old as? [String: Any], let after = new as? [String: Any] {
            for key in before.keys.sorted() where after[key] == nil {
                operations.append(["op": "remove", "path": path + "/" + escape(key)])
            }
            for key in after.keys.sorted() {
                // `key` comes from `after.keys`.
                let value = after[key]!
                if let previous = before[key] {
                    diff(previous, value, at: path + "/" + escape(key), into: &operations)
                } else {
                    operations.append(["op": "add", "path": path + "/" + escape(key), "value": raw(value)])
                }
            }
            return
        }
        if let before = old as? [Any], let after = new as? [Any] {
            diffArrays(before, after, at: path, into: &operations)
            return
        }
        if !equal(old, new) {
            operations.append(["op": "replace", "path": path, "value": raw(new)])
        }
    }

    private static func diffArrays(_ before: [Any], _ after: [Any], at path: String, into operations: inout [[String: Any]]) {
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
                operations.append(["op": "add", "path": "\(path)/\(prefix + offset)", "value": raw(after[prefix + offset])])
            }
        } else if oldMiddle > newMiddle {
            // Removed from the last down, so the indexes of those still to go do not move.
            for offset in (newMiddle..<oldMiddle).reversed() {
                operations.append(["op": "remove", "path": "\(path)/\(prefix + offset)"])
            }
        }
    }

    /// Deep equality of parsed JSON values.
    static func equal(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case (let x as [String: Any], let y as [String: Any]):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        case (let x as [Any], let y as [Any]):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (let x as String, let y as String):
            return x == y
        case (let x as NSNumber, let y as NSNumber):
            return x.isEqual(y)
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }

    /// A JSON value as its text, for the line (`JSONSerialization` keeps numbers and booleans apart).
    private static func raw(_ value: Any) -> RawJSON {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])) ?? Data("null".utf8)
        return RawJSON(text: String(decoding: data, as: UTF8.self))
    }

    /// A key as a JSON Pointer token.
    static func escape(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
