@_spi(Reflection) import Swift
import SwiftShims

/// A type's stored fields as the runtime describes them, no value read:
/// the standard library's reflection (`_forEachField`, the entry points
/// `Mirror` is built on), behind one surface so a toolchain that changes
/// them breaks this module's tests, not the shell.
package enum TypeFields {
    /// A stored field: its name, its offset in its type's value, and its type.
    package struct Stored {
        package let name: String
        package let offset: Int
        package let type: Any.Type
    }

    /// A field as `Mirror` sees it: its name, its type, and whether it is
    /// held strongly (a `weak` or `unowned` field is stored as a reference,
    /// not as its type).
    package struct Described {
        package let name: String
        package let type: Any.Type
        package let isStrong: Bool
    }

    /// The stored fields of a struct, tuple or class type, in declaration
    /// order; nil when the runtime cannot describe the type.
    package static func stored(of type: Any.Type) -> [Stored]? {
        var fields: [Stored] = []
        let described = _forEachField(of: type) { name, offset, fieldType, _ in
            fields.append(Stored(name: String(cString: name), offset: offset, type: fieldType))
            return true
        }
        return described ? fields : nil
    }

    /// Every field of `type` as its mirror lists them (a class's own and its superclasses').
    package static func described(of type: Any.Type) -> [Described] {
        (0..<reflectedFieldCount(type)).map { index in
            var metadata = _FieldReflectionMetadata()
            let fieldType = reflectedField(type, index: index, fieldMetadata: &metadata)
            defer { metadata.freeFunc?(metadata.name) }
            return Described(name: metadata.name.map { String(cString: $0) } ?? "", type: fieldType, isStrong: metadata.isStrong)
        }
    }

    /// Each stored field of the struct `Root` with a key path to it, in
    /// declaration order; nil when the runtime cannot list them.
    package static func keyPaths<Root>(of _: Root.Type) -> [(name: String, path: PartialKeyPath<Root>)]? {
        var fields: [(name: String, path: PartialKeyPath<Root>)] = []
        let listed = _forEachFieldWithKeyPath(of: Root.self) { name, path in
            fields.append((String(cString: name), path))
            return true
        }
        return listed ? fields : nil
    }

    /// The size and stride of a value of `type`.
    package static func layout(of type: Any.Type) -> (size: Int, stride: Int) {
        func layout<T>(_: T.Type) -> (size: Int, stride: Int) { (MemoryLayout<T>.size, MemoryLayout<T>.stride) }
        return layout(type)
    }
}

// The runtime's reflection entry points, as the standard library declares
// them for `Mirror` (ReflectionMirror.swift): part of its stable ABI.
@_silgen_name("swift_reflectionMirror_recursiveCount")
private func reflectedFieldCount(_ type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func reflectedField(_ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<_FieldReflectionMetadata>) -> Any.Type
