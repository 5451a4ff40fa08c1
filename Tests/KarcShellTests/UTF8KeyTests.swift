import Testing

@testable import KarcSession
@testable import KarcShell

@Suite(.timeLimit(.minutes(1)))
struct UTF8KeyTests {
    @Test func aKeyIsDecodedOnceItsLastByteArrives() {
        let bytes = Array("👍".utf8)
        #expect(UTF8Key.decode(Array(bytes.prefix(1))) == .incomplete)
        #expect(UTF8Key.decode(Array(bytes.prefix(3))) == .incomplete)
        #expect(UTF8Key.decode(bytes) == .scalar("👍"))
        #expect(UTF8Key.decode(Array("é".utf8)) == .scalar("é"))
        #expect(UTF8Key.decode([0x61]) == .scalar("a"))
    }

    @Test func bytesThatAreNotUTF8AreDropped() {
        #expect(UTF8Key.decode([0xFF]) == .invalid)
        #expect(UTF8Key.decode([0x80]) == .invalid)
        #expect(UTF8Key.decode([0xE2, 0x41]) == .invalid)  // a lead byte, then ASCII
        #expect(UTF8Key.decode([0xED, 0xA0, 0x80]) == .invalid)  // a surrogate
    }
}
