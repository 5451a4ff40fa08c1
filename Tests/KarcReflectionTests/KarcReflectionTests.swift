import Foundation
import Testing

@testable import KarcReflection

// Each assumption KarcReflection makes about the Swift runtime, held to what
// the standard library itself says: a toolchain that breaks one fails here.

private struct Padded: Equatable {
    var flag: Bool
    var count: Int
    var title: String
}

private final class Owner {
    let name = "owner"
    weak var next: Owner?
}

private enum Direction { case north, east, south, west }
private enum Single { case only }
private enum Carrying {
    case some(Int)
    case none
}

@Suite(.timeLimit(.minutes(1))) struct KarcReflectionTests {
    @Test func theMetadataKindOfEachShapeIsWhatTheRuntimeRecords() {
        #expect(MetadataKind(of: Padded.self) == .struct)
        #expect(MetadataKind(of: Owner.self) == .class)
        #expect(MetadataKind(of: Direction.self) == .enum)
        #expect(MetadataKind(of: Int?.self) == .optional, "an optional's kind is its own, not an enum's")
        #expect(MetadataKind(of: (Int, String).self) == .tuple)
        #expect(MetadataKind(of: (any Equatable).self) != .struct)
        if case .other = MetadataKind(of: Int.Type.self) {} else { Issue.record("a metatype is none of the named kinds") }
    }

    @Test func existentialsAreToldFromEveryOtherKind() {
        #expect(MetadataKind(of: Any.self).isExistential)
        #expect(MetadataKind(of: (any Equatable).self).isExistential)
        #expect(MetadataKind(of: AnyObject.self).isExistential)
        #expect(MetadataKind(of: (any Sequence<Int>).self).isExistential, "a constrained existential is an extended one")
        for type: Any.Type in [Padded.self, Owner.self, Direction.self, Int?.self, (Int, String).self, Int.Type.self, Any.Type.self] {
            #expect(!MetadataKind(of: type).isExistential, "\(type)")
        }
    }

    @Test func storedFieldsHaveTheOffsetsAndTypesMemoryLayoutGives() throws {
        let fields = try #require(TypeFields.stored(of: Padded.self))
        #expect(fields.map(\.name) == ["flag", "count", "title"])
        #expect(fields.map(\.offset) == [0, MemoryLayout<Padded>.offset(of: \.count), MemoryLayout<Padded>.offset(of: \.title)])
        #expect(ObjectIdentifier(fields[1].type) == ObjectIdentifier(Int.self))
        #expect(TypeFields.layout(of: Padded.self) == (MemoryLayout<Padded>.size, MemoryLayout<Padded>.stride))
    }

    @Test func describedFieldsAreTheMirrorsChildrenWithTheirStrength() {
        let fields = TypeFields.described(of: Owner.self)
        #expect(fields.map(\.name) == Mirror(reflecting: Owner()).children.map(\.label))
        #expect(fields.map(\.isStrong) == [true, false], "a weak field is stored as a reference")
    }

    @Test func keyPathsReadEachStoredFieldInDeclarationOrder() throws {
        let value = Padded(flag: true, count: 3, title: "t")
        let paths = try #require(TypeFields.keyPaths(of: Padded.self))
        #expect(paths.map(\.name) == ["flag", "count", "title"])
        #expect(value[keyPath: paths[1].path] as? Int == 3)
        #expect(value[keyPath: paths[2].path] as? String == "t")
    }

    @Test func aPayloadFreeEnumsCasesComeFromItsTypeInDeclarationOrder() {
        #expect(PayloadFreeEnum.cases(of: Direction.self) == [.north, .east, .south, .west])
        #expect(PayloadFreeEnum.cases(of: Single.self) == [.only])
        #expect(PayloadFreeEnum.cases(of: Carrying.self) == nil, "a case with a payload: not read off the type")
        #expect(PayloadFreeEnum.cases(of: Padded.self) == nil)
        #expect(PayloadFreeEnum.cases(of: Int?.self) == nil)
    }

    @Test func aValueByteMaskCoversTheFieldsAndSkipsThePadding() throws {
        let mask = try #require(ValueBytes.mask(of: Padded.self), "a Bool before an Int leaves padding")
        // The Bool's byte, not the seven after it; every byte of the Int and the String.
        #expect(mask.words[0] == 0xFF)
        #expect(mask.words.dropFirst().allSatisfy { $0 == ~0 })
        #expect(ValueBytes.mask(of: Int.self) == nil, "no padding: a plain memcmp is right")
        var a = Padded(flag: true, count: 1, title: "x")
        var b = a
        // Padding that differs does not make two equal values differ.
        withUnsafeMutableBytes(of: &a) { $0[1] = 0xAA }
        withUnsafeMutableBytes(of: &b) { $0[1] = 0x55 }
        let same = withUnsafeBytes(of: a) { old in
            withUnsafeBytes(of: b) { new in old.baseAddress.flatMap { o in new.baseAddress.map { mask.sameValueBytes(o, $0) } } }
        }
        #expect(same == true)
    }
}
