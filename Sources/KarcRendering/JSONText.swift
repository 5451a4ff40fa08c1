import Foundation
import KarcAsync
import KarcLanguage
import KarcSynchronization

/// The JSON text `JSONEncoder` writes with `[.sortedKeys,
/// .withoutEscapingSlashes]`, for plain `Encodable` values, at a fraction of
/// its cost: a state or reply is encoded on every command.
///
/// Plain means built from numbers, strings, booleans, nil, arrays,
/// dictionaries and nested `Encodable` types, and the values `JSONEncoder`
/// writes its own way with its default strategies: a `Date` as its seconds
/// since 2001, a `URL` as its absolute string, `Data` in base 64, a
/// `Decimal` as a number. For `superEncoder`, for non-finite numbers and
/// for anything that throws, ``encode(_:)`` returns nil and the caller asks
/// `JSONEncoder`. `JSONTextTests` hold the two to the same output.
///
/// A value is encoded into a tree of ``Node``s first. Given the tree of the
/// state before (``tree(_:reusing:)``), the parts that did not change are
/// not encoded again: each node remembers the value it came from, and an
/// unchanged value (``Unchanged``) takes its old node as it is, so a
/// `--json` state line costs what changed, and its patch (``JSONPatch``)
/// skips the shared nodes by identity.
package enum JSONText {
    package static func encode(_ value: any Encodable) -> String? {
        tree(value, reusing: nil)?.text
    }

    /// `value` as a tree, sharing the nodes of `old` (the tree of an earlier
    /// value of the same type) wherever the two values agree; nil when only
    /// `JSONEncoder` can encode it. `prefixes` holds what the diff of the
    /// same change already compared.
    package static func tree(_ value: any Encodable, reusing old: Node?, prefixes: ComparedPrefixes? = nil) -> Node? {
        let context = Context(prefixes: prefixes ?? ComparedPrefixes())
        func open<Value: Encodable>(_ value: Value) throws -> Node {
            try node(for: value, old: old, context: context, codingPath: [])
        }
        guard let root = try? open(value), !context.gaveUp else { return nil }
        return root
    }

    /// What one encoding shares: whether it gave up, and the arrays compared.
    package final class Context {
        /// Set when the value needs something only `JSONEncoder` does.
        package var gaveUp = false
        package let prefixes: ComparedPrefixes

        package init(prefixes: ComparedPrefixes) {
            self.prefixes = prefixes
        }
    }

    /// A value being built: nothing yet, an object, an array or a finished
    /// scalar. Once built, a node is never changed: a later tree may share it.
    package final class Node: JSONValue {
        package enum Kind {
            case empty
            case object([String: Node])
            case array(JSONNodeList)
            case scalar(String)
        }

        package var kind = Kind.empty
        /// The value this node was encoded from (not kept for scalars, whose
        /// text says it all, nor for a long array or what holds one: see ``keep(_:)``).
        package var source: Any?
        /// Whether it is, or holds, an array of ``StateSnapshot/threshold`` items or more.
        package private(set) var holdsLongArray = false

        /// Keeps `value` as this node's source, unless the node is, or holds,
        /// a long array: the state's storage is then left to the store, which
        /// appends in place only when nobody else holds it. Such an array is
        /// compared through what the diff of the same change learnt instead
        /// (``ComparedPrefixes/bounds(of:)``).
        func keep(_ value: Any) {
            switch kind {
            case .array(let items):
                holdsLongArray = items.count >= StateSnapshot.threshold || items.contains { $0.holdsLongArray }
            case .object(let fields):
                holdsLongArray = fields.values.contains { $0.holdsLongArray }
            case .empty, .scalar:
                holdsLongArray = false
            }
            source = holdsLongArray ? nil : value
        }

        package init(_ kind: Kind = .empty) {
            self.kind = kind
        }

        package var text: String {
            var out = ""
            appendJSON(to: &out)
            return out
        }

        package func appendJSON(to out: inout String) {
            switch kind {
            case .empty:
                out += "{}"  // a value that encodes nothing is an empty object to JSONEncoder
            case .object(let fields):
                out += "{"
                for (index, key) in fields.keys.sorted().enumerated() {
                    if index > 0 { out += "," }
                    JSONLine.appendString(key, to: &out)
                    out += ":"
                    fields[key]?.appendJSON(to: &out)
                }
                out += "}"
            case .array(let items):
                out += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { out += "," }
                    item.appendJSON(to: &out)
                }
                out += "]"
            case .scalar(let text):
                out += text
            }
        }

        /// A value of a JSON line (``ValueText/json(_:)``'s) as a tree:
        /// ``RawJSON`` text is parsed into its parts; a string is a string.
        package convenience init(json: any JSONValue) {
            switch json {
            case let raw as RawJSON:
                let parsed = try? JSONSerialization.jsonObject(with: Data(raw.text.utf8), options: [.fragmentsAllowed])
                self.init(parsed: parsed ?? raw.text)
            case let text as String:
                self.init(parsed: text)
            default:
                var text = ""
                json.appendJSON(to: &text)
                self.init(json: RawJSON(text: text))
            }
        }

        /// A document as `JSONSerialization` parses it.
        private convenience init(parsed: Any) {
            switch parsed {
            case let object as [String: Any]:
                self.init(.object(object.mapValues { Node(parsed: $0) }))
            case let array as [Any]:
                self.init(.array(JSONNodeList(array.map { Node(parsed: $0) })))
            case let text as String:
                var out = ""
                JSONLine.appendString(text, to: &out)
                self.init(.scalar(out))
            case let number as NSNumber:
                self.init(.scalar(JSONPatch.isBoolean(number) ? (number.boolValue ? "true" : "false") : number.stringValue))
            default:
                self.init(.scalar("null"))
            }
        }
    }

    /// Whether `node` is what `value` encodes to: from the value it was
    /// encoded from, or, for a scalar, from its text.
    static func encodes(_ node: Node, _ value: Any) -> Bool {
        if let source = node.source { return Unchanged.check(source, value) }
        guard case .scalar(let text) = node.kind, let written = scalarText(value) else { return false }
        return written == text
    }

    /// The text of a scalar, or nil when it is not one this encoder writes itself.
    package static func scalar(_ value: Any) -> String?? {
        switch value {
        case let string as String:
            return text(of: string)
        case let flag as Bool:
            return text(of: flag)
        case let double as Double:
            return double.isFinite ? number(double.description) : .some(nil)
        case let float as Float:
            return float.isFinite ? number(float.description) : .some(nil)
        case let integer as any BinaryInteger:
            return "\(integer)"
        // What JSONEncoder writes its own way, as its default strategies write it.
        case let date as Date:
            return text(of: date)
        case let url as URL:
            return scalar(url.absoluteString)
        case let data as Data:
            return scalar(data.base64EncodedString())
        case let decimal as Decimal:
            return decimal.description
        default:
            return nil
        }
    }

    /// ``scalar(_:)``, asked only of the types that may be one: each of its
    /// casts that fails costs a conformance lookup, for every struct, array
    /// and dictionary encoded. A type whose value was not a scalar is known
    /// never to be one, unless it is an optional (a cast sees through it:
    /// the answer depends on the value).
    ///
    /// The commonest scalars are known by their static type first, and the
    /// others' type is read without boxing the value (a struct of more than
    /// three words would be copied into a box for the casts): a list's
    /// elements and their fields are most of what a state's tree encodes.
    private static func scalarText<T>(_ value: T) -> String?? {
        if T.self == Int.self, let integer = value as? Int { return String(integer) }
        if T.self == String.self, let string = value as? String { return text(of: string) }
        if T.self == Bool.self, let flag = value as? Bool { return text(of: flag) }
        if T.self == Date.self, let date = value as? Date { return text(of: date) }
        let type = ObjectIdentifier(Swift.type(of: value))
        if nonScalarTypes.withLock({ $0.contains(type) }) { return nil }
        let text = scalar(value)
        if text == nil, !(value is any OptionalType) { nonScalarTypes.withLock { _ = $0.insert(type) } }
        return text
    }

    private static let nonScalarTypes = KarcMutex<Set<ObjectIdentifier>>([])

    /// The scalars ``scalar(_:)`` and ``scalarText(_:)`` both write.
    private static func text(of string: String) -> String {
        var out = ""
        JSONLine.appendString(string, to: &out)
        return out
    }

    private static func text(of flag: Bool) -> String { flag ? "true" : "false" }

    /// As JSONEncoder's default strategy writes a date: seconds since 2001.
    private static func text(of date: Date) -> String { number(date.timeIntervalSinceReferenceDate.description) }

    /// As JSONEncoder writes a floating-point number: its description without a trailing ".0".
    private static func number(_ description: String) -> String {
        description.hasSuffix(".0") ? String(description.dropLast(2)) : description
    }

    /// A node for `value`: a scalar written at once, `old` itself when it
    /// was encoded from an equal value, else the value encoded into a new node.
    /// `codingPath` is made only for a value that is not a scalar (a field's
    /// path is an array made per field, for a coder that asks, which few do).
    package static func node(
        for value: some Encodable, old: Node?, context: Context, codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> Node {
        if let text = scalarText(value) {
            guard let text else {
                context.gaveUp = true
                return Node()
            }
            if let old, case .scalar(let previous) = old.kind, previous == text { return old }
            return Node(.scalar(text))
        }
        let node = Node()
        // The cheap checks first: the cast asks the runtime for a conformance, for every value that is not an array.
        if let old, case .array(let items) = old.kind, let elements = value as? any EncodableElements {
            // The array's own pass over its elements tells whether it changed: no comparison before it.
            guard let changed = try elements.items(reusing: items, of: old.source, context: context, codingPath: codingPath()) else { return old }
            node.kind = .array(changed)
        } else {
            if let old, let source = old.source, Unchanged.check(source, value, prefixes: context.prefixes) { return old }
            try value.encode(to: NodeEncoder(node: node, old: old, context: context, codingPath: codingPath()))
        }
        node.keep(value)
        return node
    }
}

/// An array of `Encodable` elements, encoded as `Array.encode(to:)` does
/// (an unkeyed container, element by element), but reusing the old nodes of
/// its unchanged beginning and end without visiting them one by one; nil
/// when every element is unchanged.
package protocol EncodableElements {
    func items(reusing old: JSONNodeList, of source: Any?, context: JSONText.Context, codingPath: [any CodingKey]) throws -> JSONNodeList?
}

extension Array: EncodableElements where Element: Encodable {
    package func items(reusing old: JSONNodeList, of source: Any?, context: JSONText.Context, codingPath: [any CodingKey]) throws -> JSONNodeList? {
        let prefix: Int
        let suffix: Int
        if let before = source as? [Element], before.count == old.count {
            prefix = context.prefixes.unchangedPrefix(before, self)
            suffix =
                prefix == count && count == before.count ? 0 : unchangedSuffix(comparedWith: before, limit: Swift.min(count, before.count) - prefix)
        } else if source == nil {
            if let known = context.prefixes.bounds(of: self), known.oldCount == old.count {
                // A long array: what comparing it with the snapshot of its last value found.
                (prefix, suffix) = (known.prefix, known.suffix)
            } else {
                // A long array no diff compared: its ends, against the values the old items were encoded from.
                let common = Swift.min(count, old.count)
                var start = 0
                while start < common, JSONText.encodes(old[start], self[start]) { start += 1 }
                var end = 0
                while end < common - start, JSONText.encodes(old[old.count - 1 - end], self[count - 1 - end]) { end += 1 }
                (prefix, suffix) = (start, end)
            }
        } else {
            return JSONNodeList(
                try enumerated().map { try JSONText.node(for: $1, old: $0 < old.count ? old[$0] : nil, context: context, codingPath: codingPath) })
        }
        if prefix == count, count == old.count { return nil }
        var middle: [JSONText.Node] = []
        for index in prefix..<(count - suffix) {
            // Where the two arrays have as many elements, the old one at the same place is the likeliest to be equal.
            let previous = index < old.count - suffix ? old[index] : nil
            middle.append(try JSONText.node(for: self[index], old: previous, context: context, codingPath: codingPath))
        }
        return old.replacing(prefix..<(old.count - suffix), with: middle)
    }
}
