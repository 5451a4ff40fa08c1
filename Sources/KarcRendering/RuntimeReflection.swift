@_spi(Reflection) import Swift
import SwiftShims

// The runtime's reflection entry points, as the standard library declares
// them for `Mirror` and `_forEachField` (ReflectionMirror.swift); they are
// part of the runtime's stable ABI.
@_silgen_name("swift_reflectionMirror_recursiveCount")
func reflectedFieldCount(_ type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
func reflectedField(_ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<_FieldReflectionMetadata>) -> Any.Type

@_silgen_name("swift_getMetadataKind")
func metadataKind(_ type: Any.Type) -> UInt
