import Foundation

/// Encodes into `node`; `old`, the node an earlier value of the same place
/// was encoded into, offers its children for reuse.
package struct NodeEncoder: Encoder {
    package let node: JSONText.Node
    package let old: JSONText.Node?
    package let context: JSONText.Context
    package let codingPath: [any CodingKey]
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        switch node.kind {
        case .empty: node.kind = .object([:])
        case .object: break
        case .array, .scalar: context.gaveUp = true
        }
        var oldFields: [String: JSONText.Node] = [:]
        if case .object(let fields)? = old?.kind { oldFields = fields }
        return KeyedEncodingContainer(Keyed(node: node, old: oldFields, context: context, codingPath: codingPath))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch node.kind {
        case .empty: node.kind = .array(JSONNodeList())
        case .array: break
        case .object, .scalar: context.gaveUp = true
        }
        var oldItems = JSONNodeList()
        if case .array(let items)? = old?.kind { oldItems = items }
        return Unkeyed(node: node, old: oldItems, context: context, codingPath: codingPath)
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(node: node, old: old, context: context, codingPath: codingPath)
    }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONText.Node
    let old: [String: JSONText.Node]
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
        set(try JSONText.node(for: value, old: old[key.stringValue], context: context, codingPath: codingPath + [key]), for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONText.Node(.object([:]))
        set(child, for: key)
        return KeyedEncodingContainer(Keyed<NestedKey>(node: child, old: [:], context: context, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = JSONText.Node(.array(JSONNodeList()))
        set(child, for: key)
        return Unkeyed(node: child, old: JSONNodeList(), context: context, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        context.gaveUp = true
        return NodeEncoder(node: JSONText.Node(), old: nil, context: context, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder()
    }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let node: JSONText.Node
    let old: JSONNodeList
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
        let index = count
        append(try JSONText.node(for: value, old: index < old.count ? old[index] : nil, context: context, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONText.Node(.object([:]))
        append(child)
        return KeyedEncodingContainer(Keyed<NestedKey>(node: child, old: [:], context: context, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = JSONText.Node(.array(JSONNodeList()))
        append(child)
        return Unkeyed(node: child, old: JSONNodeList(), context: context, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        context.gaveUp = true
        return NodeEncoder(node: JSONText.Node(), old: nil, context: context, codingPath: codingPath)
    }
}

private struct Single: SingleValueEncodingContainer {
    let node: JSONText.Node
    let old: JSONText.Node?
    let context: JSONText.Context
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        node.kind = .scalar("null")
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let encoded = try JSONText.node(for: value, old: old, context: context, codingPath: codingPath)
        node.kind = encoded.kind
    }
}
