import CustomDump
import KarcLanguage

/// The parts of a value, listed one way for every walk in this module: the
/// dump, the diff and its comparisons, the summary, paths and Swift
/// literals. A value is read through the mirror custom-dump reads it
/// through (a type's `customDumpMirror`, when it gives one), so a path names
/// and a summary counts what the dump prints; a plain struct's fields are
/// read in place (``StructFields``) instead of boxed one by one by a mirror.
package enum ValueChildren {
    /// The mirror custom-dump reads `value` through.
    package static func mirror(_ value: Any) -> Mirror {
        let traits = Traits.of(value)
        guard traits.isReflectable || traits.isOptional else { return Mirror(reflecting: value) }
        return (value as? any CustomDumpReflectable)?.customDumpMirror ?? Mirror(reflecting: value)
    }

    /// The children of `value`, whose mirror is `mirror`: read in place for a
    /// plain struct (``StructFields``), else listed by the mirror.
    package static func children(of value: Any, _ mirror: Mirror) -> [Mirror.Child] {
        if mirror.displayStyle == .struct, let fields = StructFields.children(of: value) { return fields }
        return Array(mirror.children)
    }

    /// Whether `value`'s mirror (custom-dump's) lists no children, asked
    /// without making one for a plain struct (``StructFields``): a mirror
    /// costs ten allocations, a field read through a key path none.
    package static func hasNoChildren(_ value: Any) -> Bool {
        if let fields = StructFields.children(of: value) { return fields.isEmpty }
        return mirror(value).children.isEmpty
    }

    /// A class instance's stored properties, its superclasses' first (a
    /// class's mirror lists only its own).
    package static func objectChildren(_ mirror: Mirror) -> [Mirror.Child] {
        var children = Array(mirror.children)
        var ancestor = mirror.superclassMirror
        while let superclass = ancestor {
            children.insert(contentsOf: superclass.children, at: 0)
            ancestor = superclass.superclassMirror
        }
        return children
    }

    /// Macro-generated storage (`_$observationRegistrar`) is left out unless the type chose its own mirror.
    package static func isShownProperty(_ child: Mirror.Child) -> Bool {
        child.label.map { !$0.hasPrefix("_$") } ?? true
    }

    /// Tuple elements without a label are named `.0`, `.1`…: custom-dump prints them bare.
    package static func unlabelPositional(_ children: [Mirror.Child]) -> [Mirror.Child] {
        children.map { $0.label?.first == "." ? (label: nil, value: $0.value) : $0 }
    }

    /// A dictionary's entries, from its mirror (which lists each as a `(key, value)` tuple).
    package static func entries(of mirror: Mirror) -> [(key: Any, value: Any)] {
        mirror.children.compactMap { child in
            let parts = Array(Mirror(reflecting: child.value).children)
            return parts.count == 2 ? (parts[0].value, parts[1].value) : nil
        }
    }

    /// An optional's value, else the value itself (`nil` stays as it is).
    package static func unwrapped(_ value: Any) -> Any {
        if let optional = value as? any OptionalType, let wrapped = optional.wrapped { return wrapped }
        return value
    }

    /// An enum case's payload (`child`: the case's one child in its mirror) as
    /// arguments: a tuple's elements, positional ones without a label, or the
    /// one value.
    package static func payload(of child: Mirror.Child) -> [(label: String?, value: Any)] {
        let payload = Mirror(reflecting: child.value)
        guard payload.displayStyle == .tuple else { return [(nil, child.value)] }
        return unlabelPositional(Array(payload.children)).map { ($0.label, $0.value) }
    }
}
