/// Decodes the bytes of one key as they arrive from the terminal.
enum UTF8Key: Equatable {
    /// More bytes are needed.
    case incomplete
    /// Not UTF-8: the bytes are dropped.
    case invalid
    case scalar(Unicode.Scalar)

    /// What `bytes` (the start of one character) make so far.
    static func decode(_ bytes: [UInt8]) -> UTF8Key {
        guard let first = bytes.first else { return .incomplete }
        let length: Int
        switch first {
        case 0x00..<0x80: length = 1
        case 0xC2..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF5: length = 4
        default: return .invalid
        }
        if bytes.count < length {
            // A byte that cannot continue the sequence ends it as invalid at once.
            return bytes.dropFirst().allSatisfy { $0 & 0xC0 == 0x80 } ? .incomplete : .invalid
        }
        var decoder = Unicode.UTF8()
        var iterator = bytes.prefix(length).makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return .scalar(scalar) }
        return .invalid
    }
}
