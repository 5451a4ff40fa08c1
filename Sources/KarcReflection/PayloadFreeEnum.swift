/// The cases of an enum none of whose cases has a payload, read off its
/// type with no instance: from the runtime's type metadata (stable ABI),
/// its kind and, in its type descriptor, its counts of cases with and
/// without payloads. Such an enum stores case `i` as the tag `i`, in
/// declaration order, in 0 bytes (one case) or 1 byte (2 to 255 cases).
package enum PayloadFreeEnum {
    /// Every case of `type`, in declaration order; nil when it is not such
    /// an enum or its layout is not the one described above.
    package static func cases<Key>(of type: Key.Type) -> [Key]? {
        guard let count = caseCount(type) else { return nil }
        switch (count, MemoryLayout<Key>.size) {
        case (1, 0):
            // Proof for `unsafeBitCast`: a one-case enum has no bits; () is its only value's representation.
            return [unsafeBitCast((), to: Key.self)]
        case (2...255, 1):
            // The first tag past the cases is `Optional.none` (the enum's first extra inhabitant):
            // a check that the layout is the one described above before any key is made.
            guard MemoryLayout<Key?>.size == 1, unsafeBitCast(UInt8(count), to: Key?.self) == nil else { return nil }
            // Proof for `unsafeBitCast`: tags 0..<count are the cases of a payload-free enum (checked above).
            return (0..<count).map { unsafeBitCast(UInt8($0), to: Key.self) }
        default:
            return nil
        }
    }

    /// The number of cases when `type` is an enum none of whose cases has a payload.
    static func caseCount(_ type: Any.Type) -> Int? {
        guard MetadataKind(of: type) == .enum else { return nil }
        // Proof for `unsafeBitCast`: a metatype is a pointer to its type metadata: the kind, then a
        // pointer to the type descriptor.
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        guard let descriptor = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer?.self) else { return nil }
        // The descriptor's kind (low 5 bits of its flags) is 18 for an enum.
        guard descriptor.load(as: UInt32.self) & 0x1F == 18 else { return nil }
        // Enum descriptor: flags, parent, name, access function, fields (4 bytes each), then the
        // payload case count (low 24 bits) and the count of cases without payload.
        let payloadCases = descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF
        let emptyCases = descriptor.load(fromByteOffset: 24, as: UInt32.self)
        guard payloadCases == 0, emptyCases > 0 else { return nil }
        return Int(emptyCases)
    }
}
