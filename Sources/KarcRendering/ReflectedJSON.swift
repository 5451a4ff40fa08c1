import CustomDump
import KarcLanguage

/// A value that is not `Encodable`, encoded as JSON from what reflection
/// shows of it, as the dump shows it: a struct or class as an object of its
/// stored properties (a class's inherited ones too), an array or set as an
/// array (a set's elements in the order its dump sorts them), a dictionary
/// as an object (each key as its dump's text), an enum case as its name or,
/// with a payload, `{"case": payload}` (one unlabeled value as itself, else
/// an object of its labels, `_0`, `_1`… where it has none), a tuple as an
/// object or an array, an optional as its value or `null`.
///
/// A part that is `Encodable` is encoded as its own `encode(to:)` says; a
/// `CustomDumpStringConvertible` part is its description; a
/// `CustomDumpRepresentable` one, what it represents itself as. What has no
/// parts to show (a function) is its dump's text. A class instance met
/// again under itself (a cycle) is `"↩︎ Type"`, and a part more than
/// ``maxDepth`` levels down is `"…"`: a graph of objects is never walked
/// forever.
///
/// Encoded through ``JSONText``, so a state of such a type gets a tree whose
/// unchanged parts the next state shares, and a patch as fine as an
/// `Encodable` state's.
struct ReflectedJSON: Encodable {
    let value: Any
    /// Levels above this part.
    var depth = 0
    /// The class instances this part lies under.
    var ancestors: [ObjectIdentifier] = []

    /// Levels encoded before a part is cut to `"…"`.
    static let maxDepth = 64

    init(_ value: Any) {
        self.value = value
    }

    private init(_ value: Any, under parent: ReflectedJSON, object: ObjectIdentifier?) {
        self.value = value
        depth = parent.depth + 1
        ancestors = object.map { parent.ancestors + [$0] } ?? parent.ancestors
    }

    func encode(to encoder: any Encoder) throws {
        guard depth < Self.maxDepth else { return try Self.encodeText("…", to: encoder) }
        if let encodable = value as? any Encodable { return try encodable.encode(to: encoder) }
        let traits = Traits.of(value)
        if traits.isOptional {
            guard let wrapped = (value as? any OptionalType)?.wrapped else {
                var single = encoder.singleValueContainer()
                return try single.encodeNil()
            }
            return try ReflectedJSON(wrapped, under: self, object: nil).encode(to: encoder)
        }
        if traits.isConvertible, let convertible = value as? any CustomDumpStringConvertible {
            return try Self.encodeText(convertible.customDumpDescription, to: encoder)
        }
        if traits.isRepresentable, let representable = value as? any CustomDumpRepresentable {
            return try ReflectedJSON(representable.customDumpValue, under: self, object: nil).encode(to: encoder)
        }
        let mirror = ValueChildren.mirror(value)
        let children = ValueChildren.children(of: value, mirror)
        switch mirror.displayStyle {
        case .class?:
            let object = ObjectIdentifier(value as AnyObject)
            guard !ancestors.contains(object) else { return try Self.encodeText("↩︎ " + Dumper.typeName(mirror.subjectType), to: encoder) }
            let all = ValueChildren.objectChildren(mirror)
            try encodeFields(traits.isReflectable ? all : all.filter(ValueChildren.isShownProperty), to: encoder, object: object)
        case .struct?:
            try encodeFields(traits.isReflectable ? children : children.filter(ValueChildren.isShownProperty), to: encoder, object: nil)
        case .collection?:
            try encodeItems(children.map(\.value), to: encoder)
        case .set?:
            // Sorted as its dump sorts it, so an unchanged set encodes the same whatever order it iterates in.
            try encodeItems(children.map { (Dumper.dump($0.value), $0.value) }.sorted { $0.0 < $1.0 }.map(\.1), to: encoder)
        case .dictionary?:
            let entries = ValueChildren.entries(of: mirror).map { entry in
                (label: (entry.key as? String) ?? Dumper.dump(entry.key) as String?, value: entry.value)
            }
            try encodeFields(entries, to: encoder, object: nil)
        case .enum?:
            guard let payload = children.first else { return try Self.encodeText("\(value)", to: encoder) }
            let arguments = ValueChildren.payload(of: payload)
            var container = encoder.container(keyedBy: Key.self)
            let key = Key(payload.label ?? "@unknown")
            if arguments.count == 1, arguments[0].label == nil {
                try encode(arguments[0].value, in: &container, at: key, object: nil)
            } else {
                var fields = container.nestedContainer(keyedBy: Key.self, forKey: key)
                for (offset, argument) in arguments.enumerated() {
                    try encode(argument.value, in: &fields, at: Key(argument.label ?? "_\(offset)"), object: nil)
                }
            }
        case .tuple?:
            let elements = ValueChildren.unlabelPositional(children)
            if elements.allSatisfy({ $0.label == nil }) {
                try encodeItems(elements.map(\.value), to: encoder)
            } else {
                try encodeFields(
                    elements.enumerated().map { (label: $0.element.label ?? "_\($0.offset)", value: $0.element.value) }, to: encoder, object: nil)
            }
        case .optional?:
            guard let wrapped = children.first?.value else {
                var single = encoder.singleValueContainer()
                return try single.encodeNil()
            }
            try ReflectedJSON(wrapped, under: self, object: nil).encode(to: encoder)
        default:
            try Self.encodeText(Dumper.dump(value), to: encoder)
        }
    }

    private func encodeFields(_ fields: [Mirror.Child], to encoder: any Encoder, object: ObjectIdentifier?) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (offset, field) in fields.enumerated() {
            try encode(field.value, in: &container, at: Key(field.label ?? "_\(offset)"), object: object)
        }
    }

    private func encode(_ part: Any, in container: inout KeyedEncodingContainer<Key>, at key: Key, object: ObjectIdentifier?) throws {
        // An `Encodable` part goes through the container itself: its node is shared with the last tree's when unchanged.
        if let encodable = part as? any Encodable {
            try container.encode(encodable, forKey: key)
        } else {
            try container.encode(ReflectedJSON(part, under: self, object: object), forKey: key)
        }
    }

    private func encodeItems(_ items: [Any], to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for item in items {
            if let encodable = item as? any Encodable {
                try container.encode(encodable)
            } else {
                try container.encode(ReflectedJSON(item, under: self, object: nil))
            }
        }
    }

    private static func encodeText(_ text: String, to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(text)
    }

    /// A field's name, a dictionary's key, an enum's case.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
