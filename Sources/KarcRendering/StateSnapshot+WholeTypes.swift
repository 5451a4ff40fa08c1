import KarcLanguage
import KarcReflection
import KarcSynchronization
import Synchronization

extension StateSnapshot {
    /// Whether every value of `type` is its own snapshot: no array where
    /// ``take(_:reusing:prefixes:)`` looks for one (a plain struct's fields,
    /// theirs, an optional's value), nor an existential that could hold
    /// one. Such a state (a counter, a form) is kept as it is without a
    /// mirror, its fields listed and a snapshot of each taken and thrown away
    /// on every change: answered from the fields' declared types, once per type.
    static func isAlwaysWhole(_ type: Any.Type) -> Bool {
        let key = ObjectIdentifier(type)
        if let known = wholeTypes.withLock({ $0[key] }) { return known }
        let whole = Self.whole(type, depth: 0)
        wholeTypes.withLock { $0[key] = whole }
        return whole
    }

    private static let wholeTypes = KarcMutex<[ObjectIdentifier: Bool]>([:])

    /// A struct nests structs only finitely; the bound only keeps a runtime surprise from recursing forever.
    private static func whole(_ type: Any.Type, depth: Int) -> Bool {
        guard depth < 32 else { return false }
        if type is any ChunkableElements.Type { return false }
        // A cast sees through optionals, so an optional array is kept in parts; any other optional is kept whole.
        if let optional = type as? any OptionalType.Type {
            var wrapped = optional.wrappedType
            while let inner = wrapped as? any OptionalType.Type { wrapped = inner.wrappedType }
            return !(wrapped is any ChunkableElements.Type) && !MetadataKind(of: wrapped).isExistential
        }
        let kind = MetadataKind(of: type)
        switch kind {
        case .struct:
            if Traits.isScalar(type) { return true }
            return TypeFields.described(of: type).allSatisfy { whole($0.type, depth: depth + 1) }
        case _ where kind.isExistential:
            // `Any`, `any P`: what it holds is known only from a value.
            return false
        default:
            // An enum, a class, a tuple, a metatype: `take` keeps it as it is.
            return true
        }
    }
}
