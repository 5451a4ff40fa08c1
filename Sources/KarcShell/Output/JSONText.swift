import Foundation

/// The JSON text `JSONEncoder` writes with `[.sortedKeys,
/// .withoutEscapingSlashes]`, for plain `Encodable` values, at a fraction of
/// its cost: a state or reply is encoded on every command.
///
/// Plain means built from numbers, strings, booleans, nil, arrays,
/// dictionaries and nested `Encodable` types. For what `JSONEncoder` treats
/// specially (`Date`, `URL`, `Data`, `Decimal`), for `superEncoder`, for
/// non-finite numbers and for anything that throws, ``encode(_:)`` returns
/// nil and the caller asks `JSONEncoder`. `JSONTextTests` hold the two to
/// the same output.
enum JSONText {
    static func encode(_ value: any Encodable) -> String? {
        guard !isSpecial(type(of: value)) else { return nil }
        let context = Context()
        let root = Node()
        do {
            try value.encode(to: NodeEncoder(node: root, context: context, codingPath: []))
        } catch {
            return nil
        }
        guard !context.gaveUp else { return nil }
        var out = ""
        root.write(to: &out)
        return out
    }

    static func isSpecial(_ type: Any.Type) -> Bool {
        type is Date.Type || type is URL.Type || type is Data.Type || type is Decimal.Type
    }

    /// Set when the value needs something only `JSONEncoder` does.
    final class Context {
        var gaveUp = false
    }

    /// A value being built: nothing yet, an object, an array or a finished scalar.
    final class Node {
        enum Kind {
            case empty
            case object([String: Node])
            case array([Node])
            case scalar(String)
        }

        var kind = Kind.empty

        init(_ kind: Kind = .empty) {
            self.kind = kind
        }

        func write(to out: inout String) {
            switch kind {
            case .empty:
                out += "{}"  // a value that encodes nothing is an empty object to JSONEncoder
            case .object(let fields):
                out += "{"
                for (index, key) in fields.keys.sorted().enumerated() {
                    if index > 0 { out += "," }
                    JSONLine.appendString(key, to: &out)
                    out += ":"
                    fields[key]?.write(to: &out)
                }
                out += "}"
            case .array(let items):
                out += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { out += "," }
                    item.write(to: &out)
                }
                out += "]"
            case .scalar(let text):
                out += text
            }
        }
    }

    /// The text of a scalar, or nil when it is not one this encoder writes itself.
    static func scalar(_ value: Any) -> String?? {
        switch value {
        case let string as String:
            var out = ""
            JSONLine.appendString(string, to: &out)
            return out
        case let flag as Bool:
            return flag ? "true" : "false"
        case let double as Double:
            return double.isFinite ? number(double.description) : .some(nil)
        case let float as Float:
            return float.isFinite ? number(float.description) : .some(nil)
        case let integer as any BinaryInteger:
            return "\(integer)"
        default:
            return nil
        }
    }

    /// As JSONEncoder writes a floating-point number: its description without a trailing ".0".
    private static func number(_ description: String) -> String {
        description.hasSuffix(".0") ? String(description.dropLast(2)) : description
    }

    /// A node for `value`: a scalar written at once, else the value encoded into a new node.
    static func node(for value: some Encodable, context: Context, codingPath: [any CodingKey]) throws -> Node {
        if let text = scalar(value) {
            guard let text else {
                context.gaveUp = true
                return Node()
            }
            return Node(.scalar(text))
        }
        if isSpecial(type(of: value)) { context.gaveUp = true }
        let node = Node()
        try value.encode(to: NodeEncoder(node: node, context: context, codingPath: codingPath))
        return node
    }
}

private struct NodeEncoder: Encoder {
    let node: JSONText.Node
    let context: JSONText.Context
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        switch node.kind {
        case .empty: node.kind = .object([:])
        case .object: break
        case .array, .scalar: context.gaveUp = true
        }
        return KeyedEncodingContainer(Keyed(node: node, context: context, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch node.kind {
        case .empty: node.kind = .array([])
        case .array: break
        case .object, .scalar: context.gaveUp = true
        }
        return Unkeyed(node: node, context: context, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(node: node, context: context, codingPath: codingPath)
    }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONText.Node
    let context: JSONText.Context
    let codingPath: [any CodingKey]

    private func set(_ child: JSONText.Node, for key: Key) {
        guard case .object(var fields) = node.kind else { return }
        node.kind = .empty  // so `fields` is the only reference while it changes
        fields[key.stringValue] = child
        node.kind = .object(fields)
    }

    mutating func encodeNil(forKey key: Key) throws {
        set(JSONText.Node(.scalar("null")), for: key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try JSONText.node(for: value, context: context, codingPath: codingPath + [key]), for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONText.Node(.object([:]))
        set(child, for: key)
        return KeyedEncodingContainer(Keyed<NestedKey>(node: child, context: context, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = JSONText.Node(.array([]))
        set(child, for: key)
        return Unkeyed(node: child, context: context, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        context.gaveUp = true
        return NodeEncoder(node: JSONText.Node(), context: context, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder()
    }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let node: JSONText.Node
    let context: JSONText.Context
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let items) = node.kind { return items.count }
        return 0
    }

    private func append(_ child: JSONText.Node) {
        guard case .array(var items) = node.kind else { return }
        node.kind = .empty  // so `items` is the only reference while it grows
        items.append(child)
        node.kind = .array(items)
    }

    mutating func encodeNil() throws {
        append(JSONText.Node(.scalar("null")))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try JSONText.node(for: value, context: context, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONText.Node(.object([:]))
        append(child)
        return KeyedEncodingContainer(Keyed<NestedKey>(node: child, context: context, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = JSONText.Node(.array([]))
        append(child)
        return Unkeyed(node: child, context: context, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        context.gaveUp = true
        return NodeEncoder(node: JSONText.Node(), context: context, codingPath: codingPath)
    }
}

private struct Single: SingleValueEncodingContainer {
    let node: JSONText.Node
    let context: JSONText.Context
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        node.kind = .scalar("null")
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let encoded = try JSONText.node(for: value, context: context, codingPath: codingPath)
        node.kind = encoded.kind
    }
}
