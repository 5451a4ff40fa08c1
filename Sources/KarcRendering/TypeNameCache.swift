import KarcAsync
import KarcSynchronization

/// Names of types, each worked out once (a type's name is asked for every
/// value printed): custom-dump's short names (``Dumper/typeName(_:)``) and
/// the JSON lines' (``ValueText/typeName(_:)``) each keep one.
package final class TypeNameCache: Sendable {
    private let names = KarcMutex<[ObjectIdentifier: String]>([:])
    private let compute: @Sendable (Any.Type) -> String

    package init(_ compute: @escaping @Sendable (Any.Type) -> String) {
        self.compute = compute
    }

    package func name(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let known = names.withLock({ $0[key] }) { return known }
        let name = compute(type)
        names.withLock { $0[key] = name }
        return name
    }
}
