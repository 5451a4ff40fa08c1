import CustomDump
import KarcAsync
import SwiftShims
import Synchronization

/// A plain struct's children, read from its bytes with a layout learnt once
/// per type, instead of through `Mirror`.
///
/// `Mirror` looks each field's type up by its mangled name on every access:
/// about a microsecond a field, which was a third of a small state's diff.
/// The layout (each field's name, offset and type) comes from the same
/// runtime entry points the standard library's reflection uses, asked once
/// per type; a child is then a load from the value's bytes. Only the types
/// whose default mirror it reproduces get one: structs without a custom
/// mirror (`CustomReflectable`, custom-dump's `CustomDumpReflectable`) whose
/// fields are all strong and of a concrete type. Everything else answers
/// `nil`, and its mirror is asked as before.
enum StructFields {
    private struct Field {
        let label: String
        let offset: Int
        let type: Any.Type
    }

    private static let layouts = KarcMutex<[ObjectIdentifier: [Field]?]>([:])

    /// The value's children as its default mirror lists them; `nil` when the
    /// value is not a struct this reads (see above).
    static func children(of value: Any) -> [Mirror.Child]? {
        guard let fields = layout(of: value) else { return nil }
        func read<Value>(_ value: Value) -> [Mirror.Child]? {
            // An `Any` that holds another existential (a dictionary's `any P` value, cast to `Any` with
            // its tuple) opens to that existential, whose bytes are its container, not the struct the
            // layout describes: leave it to the mirror.
            guard ObjectIdentifier(Value.self) == ObjectIdentifier(type(of: value as Any)) else { return nil }
            return withUnsafeBytes(of: value) { bytes in
                fields.map { field in
                    func load<Field>(_: Field.Type) -> Any {
                        // The offset is the field's, from the runtime's layout of this very type, so the
                        // bytes there are a `Field`; a struct with fields has a base address.
                        bytes.baseAddress!.advanced(by: field.offset).assumingMemoryBound(to: Field.self).pointee
                    }
                    return (label: field.label, value: _openExistential(field.type, do: load))
                }
            }
        }
        return _openExistential(value, do: read)
    }

    private static func layout(of value: Any) -> [Field]? {
        let type = type(of: value)
        let key = ObjectIdentifier(type)
        if let known = layouts.withLock({ $0[key] }) { return known }
        let learnt = learn(value, type)
        layouts.withLock { $0[key] = learnt }
        return learnt
    }

    private static func learn(_ value: Any, _ type: Any.Type) -> [Field]? {
        guard !(value is any CustomReflectable), !(value is any CustomDumpReflectable),
            Mirror(reflecting: value).displayStyle == .struct
        else { return nil }
        var fields: [Field] = []
        for index in 0..<reflectedFieldCount(type) {
            var metadata = _FieldReflectionMetadata()
            let fieldType = reflectedField(type, index: index, fieldMetadata: &metadata)
            defer { metadata.freeFunc?(metadata.name) }
            // A weak or unowned field is stored as a reference, not as its type.
            guard metadata.isStrong, isConcrete(fieldType) else { return nil }
            let label = metadata.name.map { String(cString: $0) } ?? ""
            fields.append(Field(label: label, offset: reflectedFieldOffset(type, index: index), type: fieldType))
        }
        return fields
    }

    /// Whether a field of this type boxes into `Any` as its mirror child does:
    /// not an existential, a metatype or a function, whose boxing differs.
    private static func isConcrete(_ type: Any.Type) -> Bool {
        switch metadataKind(type) {
        case 0, 0x200, 0x201, 0x202, 0x301: true  // class, struct, enum, optional, tuple
        default: false
        }
    }
}

// The runtime's reflection entry points, as the standard library declares
// them for `Mirror` and `_forEachField` (ReflectionMirror.swift); they are
// part of the runtime's stable ABI.
@_silgen_name("swift_reflectionMirror_recursiveCount")
private func reflectedFieldCount(_ type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func reflectedField(_ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<_FieldReflectionMetadata>) -> Any.Type

@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func reflectedFieldOffset(_ type: Any.Type, index: Int) -> Int

@_silgen_name("swift_getMetadataKind")
private func metadataKind(_ type: Any.Type) -> UInt
