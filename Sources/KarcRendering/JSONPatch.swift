import Foundation

/// An RFC 6902 JSON Patch from one JSON document to another, for `--json`
/// `state` lines: a line grows with the change, not with the state.
///
/// The documents are ``JSONText`` trees. A node the new tree shares with
/// the old one (an unchanged part, not encoded again) is skipped at once,
/// so a patch costs what changed. Objects are compared key by key; arrays
/// keep their common beginning and end, and the middle becomes `replace`
/// for the positions both have, then `add` (or `remove`, from the end) for
/// the rest, so appending one element to 10,000 is one `add`. Paths are
/// JSON Pointers (RFC 6901: `~0`, `~1`).
package enum JSONPatch {
    package typealias Node = JSONText.Node

    /// Each operation as its JSON text (`{"op":…,"path":…,"value":…}`), so a line writes it as is.
    package static func patch(from old: Node, to new: Node) -> [RawJSON] {
        var operations: [RawJSON] = []
        diff(old, new, at: "", into: &operations)
        return operations
    }

    /// The patch to `new` from a document no tree was kept of: one `replace` of the whole.
    package static func replacingAll(with new: Node) -> [RawJSON] {
        [operation("replace", "", value: new)]
    }

    private static func diff(_ old: Node, _ new: Node, at path: String, into operations: inout [RawJSON]) {
        if old === new { return }
        switch (fields(of: old), fields(of: new)) {
        case (let before?, let after?):
            func field(_ key: String, _ value: Node) {
                if let previous = before[key] {
                    diff(previous, value, at: path + "/" + escape(key), into: &operations)
                } else {
                    operations.append(operation("add", path + "/" + escape(key), value: value))
                }
            }
            // Sorted only when there is something to sort: removals are rare, and a state of one field is common.
            if before.keys.contains(where: { after[$0] == nil }) {
                for key in before.keys.sorted() where after[key] == nil {
                    operations.append(operation("remove", path + "/" + escape(key)))
                }
            }
            if after.count == 1, let (key, value) = after.first {
                field(key, value)
            } else {
                for (key, value) in after.sorted(by: { $0.key < $1.key }) { field(key, value) }
            }
            return
        default:
            break
        }
        if case .array(let before) = old.kind, case .array(let after) = new.kind {
            diffArrays(before, after, at: path, into: &operations)
        } else if !equal(old, new) {
            operations.append(operation("replace", path, value: new))
        }
    }

    /// An object's fields; a value that encoded nothing is an empty object.
    private static func fields(of node: Node) -> [String: Node]? {
        switch node.kind {
        case .object(let fields): fields
        case .empty: [:]
        case .array, .scalar: nil
        }
    }

    private static func diffArrays(_ before: JSONNodeList, _ after: JSONNodeList, at path: String, into operations: inout [RawJSON]) {
        let prefix = JSONNodeList.commonPrefix(before, after, equal: equal)
        let suffix = JSONNodeList.commonSuffix(before, after, limit: min(before.count, after.count) - prefix, equal: equal)
        let oldMiddle = before.count - prefix - suffix
        let newMiddle = after.count - prefix - suffix
        for offset in 0..<min(oldMiddle, newMiddle) {
            diff(before[prefix + offset], after[prefix + offset], at: "\(path)/\(prefix + offset)", into: &operations)
        }
        if newMiddle > oldMiddle {
            // Inserted in order, each before what follows it (the index of the end appends).
            for offset in oldMiddle..<newMiddle {
                operations.append(operation("add", "\(path)/\(prefix + offset)", value: after[prefix + offset]))
            }
        } else if oldMiddle > newMiddle {
            // Removed from the last down, so the indexes of those still to go do not move.
            for offset in (newMiddle..<oldMiddle).reversed() {
                operations.append(operation("remove", "\(path)/\(prefix + offset)"))
            }
        }
    }

    /// Deep equality of two trees; shared nodes are equal at once.
    package static func equal(_ a: Node, _ b: Node) -> Bool {
        if a === b { return true }
        switch (a.kind, b.kind) {
        case (.scalar(let x), .scalar(let y)):
            return x == y
        case (.array(let x), .array(let y)):
            return x.count == y.count && JSONNodeList.commonPrefix(x, y, equal: equal) == x.count
        default:
            guard let x = fields(of: a), let y = fields(of: b), x.count == y.count else { return false }
            return x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        }
    }

    /// The class `JSONSerialization` gives `true` and `false`: how a boolean
    /// `NSNumber` is told from a number.
    private static let booleanType: AnyObject.Type? = {
        let parsed = try? JSONSerialization.jsonObject(with: Data("true".utf8), options: [.fragmentsAllowed])
        return (parsed as AnyObject?).map { type(of: $0) }
    }()

    package static func isBoolean(_ number: NSNumber) -> Bool {
        booleanType.map { type(of: number) == $0 } ?? false
    }

    /// One operation's text; its keys in sorted order, as every line writes them.
    private static func operation(_ op: String, _ path: String, value: Node? = nil) -> RawJSON {
        var text = "{\"op\":\"\(op)\",\"path\":"
        JSONLine.appendString(path, to: &text)
        if let value {
            text += ",\"value\":"
            value.appendJSON(to: &text)
        }
        return RawJSON(text: text + "}")
    }

    /// A key as a JSON Pointer token.
    package static func escape(_ key: String) -> String {
        // Almost no key holds either: the common case is the key itself, without a search through Foundation.
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
