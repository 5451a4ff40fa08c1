import CustomDump
import KarcAsync
import KarcReflection
import KarcSynchronization
import Synchronization

/// A plain struct's children, read through key paths learnt once per type,
/// instead of through `Mirror`.
///
/// `Mirror` looks each field's type up by its mangled name on every access:
/// about a microsecond a field, which was a third of a small state's diff.
/// Here each field's key path (from the standard library's
/// `_forEachFieldWithKeyPath`) is made once per type, and a child is that
/// key path applied to the value: no raw memory is read, and a key path of
/// another type than the value's is never applied (it does not cast). Only
/// the types whose default mirror it reproduces get one: structs without a
/// custom mirror (`CustomReflectable`, custom-dump's `CustomDumpReflectable`)
/// whose fields are all strong and of a concrete type. Everything else
/// answers `nil`, and its mirror is asked as before.
package enum StructFields {
    private struct Field: @unchecked Sendable {  // A key path is immutable once made; a label is a String.
        let label: String
        let path: AnyKeyPath
    }

    private static let layouts = KarcMutex<[ObjectIdentifier: [Field]?]>([:])

    /// The value's children as its default mirror lists them; `nil` when the
    /// value is not a struct this reads (see above).
    package static func children(of value: Any) -> [Mirror.Child]? {
        func read<Value>(_ value: Value) -> [Mirror.Child]? {
            // An `Any` that holds another existential (a dictionary's `any P` value, cast to `Any` with
            // its tuple) opens to that existential, not to the struct: leave it to the mirror.
            guard ObjectIdentifier(Value.self) == ObjectIdentifier(type(of: value as Any)), let fields = layout(of: value) else { return nil }
            var children: [Mirror.Child] = []
            children.reserveCapacity(fields.count)
            for field in fields {
                guard let path = field.path as? PartialKeyPath<Value> else { return nil }
                children.append((label: field.label, value: value[keyPath: path]))
            }
            return children
        }
        return read(value)
    }

    private static func layout<Value>(of value: Value) -> [Field]? {
        let key = ObjectIdentifier(Value.self)
        if let known = layouts.withLock({ $0[key] }) { return known }
        let learnt = learn(value)
        layouts.withLock { $0[key] = learnt }
        return learnt
    }

    private static func learn<Value>(_ value: Value) -> [Field]? {
        guard !(value is any CustomReflectable), !(value is any CustomDumpReflectable),
            Mirror(reflecting: value).displayStyle == .struct
        else { return nil }
        // The runtime's description of each field (no value is read): a weak or unowned field is
        // stored as a reference, not as its type, and an existential, metatype or function field
        // boxes differently from its mirror child.
        var labels: [String] = []
        for field in TypeFields.described(of: Value.self) {
            guard field.isStrong, isConcrete(field.type) else { return nil }
            labels.append(field.name)
        }
        guard let listed = TypeFields.keyPaths(of: Value.self) else { return nil }
        let fields = listed.map { Field(label: $0.name, path: $0.path) }
        // Both list the stored fields in declaration order; anything else is left to the mirror.
        guard fields.map(\.label) == labels else { return nil }
        return fields
    }

    /// Whether a field of this type boxes into `Any` as its mirror child does:
    /// not an existential, a metatype or a function, whose boxing differs.
    private static func isConcrete(_ type: Any.Type) -> Bool {
        switch MetadataKind(of: type) {
        case .class, .struct, .enum, .optional, .tuple: true
        case .other: false
        }
    }
}
