/// Every case of an enum without payloads, when it can be known: the
/// `allCases` of a `CaseIterable` type, else read off the type itself. That
/// is how the shell lists the cases of a `Codable` enum action (through its
/// synthesized `CodingKeys`, which are not `CaseIterable`) and of a
/// raw-value enum field, with no instance to reflect on.
///
/// The enum is read through the Swift runtime's type metadata (stable ABI):
/// its kind, and from its type descriptor the number of cases with and
/// without payloads. A payload-free enum stores case `i` as the tag `i`, in
/// declaration order, in 0 bytes (one case) or 1 byte (2 to 255 cases).
package enum EnumCases {
    package static func all<Key>(_ type: Key.Type) -> [Key]? {
        if let iterable = type as? any CaseIterable.Type {
            return values(of: iterable).compactMap { $0 as? Key }
        }
        guard let count = payloadFreeCaseCount(type) else { return nil }
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

    private static func values<Cases: CaseIterable>(of type: Cases.Type) -> [Any] {
        type.allCases.map { $0 }
    }

    /// The name of a case: Swift prints a payload-free case as its name
    /// (unless the type describes itself otherwise).
    package static func name(of value: Any) -> String {
        String(describing: value)
    }

    /// Whether `type` is an enum (not an `Optional`, whose kind differs).
    package static func isEnum(_ type: Any.Type) -> Bool {
        // Proof for `unsafeBitCast`: a metatype is a pointer to its type metadata, which starts with its kind.
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self) == 0x201
    }

    /// The number of cases when `type` is an enum none of whose cases has a payload.
    private static func payloadFreeCaseCount(_ type: Any.Type) -> Int? {
        // Metadata: the kind (an enum is 0x201) then a pointer to the type descriptor.
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        guard isEnum(type),
            let descriptor = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer?.self)
        else { return nil }
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
