/// The kind a type's runtime metadata records: what the Swift runtime says
/// a type is, read through `swift_getMetadataKind` (part of the runtime's
/// stable ABI, which the standard library's own `Mirror` calls).
package enum MetadataKind: Equatable, Sendable {
    case `class`
    case `struct`
    case `enum`
    case optional
    case tuple
    /// An existential, a metatype, a function, a foreign class…: its raw kind.
    case other(UInt)

    /// An existential type (`Any`, `any P`, `any P<T>`): the kind of what it holds is a value's, not the type's.
    package var isExistential: Bool {
        // Existential and ExtendedExistential in MetadataKind.def.
        if case .other(let raw) = self { raw == 0x303 || raw == 0x307 } else { false }
    }

    /// The kind of `type`.
    package init(of type: Any.Type) {
        // The values of MetadataKind.def in the Swift runtime.
        self =
            switch runtimeMetadataKind(type) {
            case 0: .class
            case 0x200: .struct
            case 0x201: .enum
            case 0x202: .optional
            case 0x301: .tuple
            case let raw: .other(raw)
            }
    }
}

@_silgen_name("swift_getMetadataKind")
private func runtimeMetadataKind(_ type: Any.Type) -> UInt
