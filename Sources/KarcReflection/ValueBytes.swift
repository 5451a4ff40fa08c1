import KarcSynchronization

/// Which bytes of a type's value hold the value: its fields' bytes, not the
/// padding between them.
///
/// A copied struct's padding (a `Bool` before a `Date?`) is not copied, so
/// two equal elements can differ there, and a `memcmp` of whole elements
/// calls them changed and leaves each to `==`: for a list of such elements,
/// ten times the cost of one without padding, and a cost that depended on
/// what the allocator left in the padding. A comparison through this mask
/// skips the padding. Learnt once per type from the runtime's field
/// descriptions (offsets and types, no value read); a type it cannot
/// describe is taken whole.
package enum ValueBytes {
    private static let masks = KarcMutex<[ObjectIdentifier: Mask?]>([:])

    /// The words of one element, `1` bits where its value lies.
    package struct Mask: Sendable {
        package let words: [UInt64]
    }

    /// The mask of `type`'s stride; nil when every byte of its stride is its
    /// value (a plain `memcmp` is right), or its stride is not a whole
    /// number of words.
    package static func mask(of type: Any.Type) -> Mask? {
        let key = ObjectIdentifier(type)
        if let known = masks.withLock({ $0[key] }) { return known }
        let learnt = learn(type)
        masks.withLock { $0[key] = learnt }
        return learnt
    }

    private static func learn(_ type: Any.Type) -> Mask? {
        let (size, stride) = TypeFields.layout(of: type)
        guard stride > 0, stride % 8 == 0 else { return nil }
        var value = [Bool](repeating: false, count: stride)
        mark(type, at: 0, size: size, in: &value)
        guard value.contains(false) else { return nil }
        var words = [UInt64](repeating: 0, count: stride / 8)
        for (index, isValue) in value.enumerated() where isValue {
            words[index / 8] |= 0xFF << (8 * UInt64(index % 8))
        }
        return Mask(words: words)
    }

    /// Marks the bytes of a `type` at `offset`: a struct's or a tuple's
    /// field by field, anything else (an enum, a reference, a scalar) whole.
    private static func mark(_ type: Any.Type, at offset: Int, size: Int, in value: inout [Bool]) {
        let kind = MetadataKind(of: type)
        let fields = kind == .struct || kind == .tuple ? TypeFields.stored(of: type) ?? [] : []
        guard !fields.isEmpty else {
            for index in offset..<min(offset + size, value.count) { value[index] = true }
            return
        }
        for field in fields {
            mark(field.type, at: offset + field.offset, size: TypeFields.layout(of: field.type).size, in: &value)
        }
    }
}

extension ValueBytes.Mask {
    /// Whether the values at `old` and `new` agree on every byte of the mask.
    @inline(__always)
    package func sameValueBytes(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer) -> Bool {
        for index in words.indices {
            let offset = index * 8
            let difference = old.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ new.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if difference & words[index] != 0 { return false }
        }
        return true
    }
}
