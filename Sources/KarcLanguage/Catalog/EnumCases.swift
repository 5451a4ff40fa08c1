import KarcReflection

/// Every case of an enum without payloads, when it can be known: the
/// `allCases` of a `CaseIterable` type, else read off the type itself. That
/// is how the shell lists the cases of a `Codable` enum action (through its
/// synthesized `CodingKeys`, which are not `CaseIterable`) and of a
/// raw-value enum field, with no instance to reflect on. An enum that is
/// not `CaseIterable` is read off the runtime's type metadata
/// (`PayloadFreeEnum`, in KarcReflection).
package enum EnumCases {
    package static func all<Key>(_ type: Key.Type) -> [Key]? {
        if let iterable = type as? any CaseIterable.Type {
            return values(of: iterable).compactMap { $0 as? Key }
        }
        return PayloadFreeEnum.cases(of: type)
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
        MetadataKind(of: type) == .enum
    }
}
