import CustomDump
import Foundation
import KarcAsync
import KarcLanguage
import KarcSynchronization
import Synchronization

/// What custom-dump asks of a value's type before walking it, asked once per type.
package struct Traits {
    package var isScalar = false
    package var isOptional = false
    package var isMetatype = false
    package var isConvertible = false
    package var isRepresentable = false
    package var isReflectable = false

    package static func of(_ value: Any) -> Traits {
        let type = type(of: value)
        let key = ObjectIdentifier(type)
        if let known = cache.withLock({ $0[key] }) { return known }
        var traits = Traits()
        switch type {
        case _ where isScalar(type):
            traits.isScalar = true
        case is any OptionalType.Type:
            // A cast sees through an optional to what it wraps, so its other
            // answers are the value's, not the type's: ask them of the value.
            traits.isOptional = true
        default:
            traits.isMetatype = value is Any.Type
            traits.isConvertible = value is any CustomDumpStringConvertible
            traits.isRepresentable = value is any CustomDumpRepresentable
            traits.isReflectable = value is any CustomDumpReflectable
        }
        cache.withLock { $0[key] = traits }
        return traits
    }

    private static let cache = KarcMutex<[ObjectIdentifier: Traits]>([:])

    /// The standard scalars: no children, no custom-dump conformance, printed as `description` or quoted.
    package static func isScalar(_ type: Any.Type) -> Bool {
        switch type {
        case is String.Type, is Substring.Type, is Bool.Type, is Double.Type, is Float.Type,
            is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
            is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            true
        default: false
        }
    }
}

/// The collections whose order is not their value's (custom-dump sorts them
/// when it dumps or diffs them): what it names `_UnorderedCollection`, owned here.
package protocol UnorderedCollection {}
extension Dictionary: UnorderedCollection {}
extension Set: UnorderedCollection {}
extension NSDictionary: UnorderedCollection {}
extension NSSet: UnorderedCollection {}
