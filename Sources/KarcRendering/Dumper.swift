import CustomDump
import Foundation
import KarcAsync
import KarcLanguage
import Synchronization

/// Writes a value exactly as custom-dump's `customDump` does, at a fraction of
/// its cost.
///
/// custom-dump works out each type's name with several regular expressions
/// on every node it prints; on Linux that was nearly half of what the shell
/// spent on a command. This walks the value the same way, case for case, but
/// names each type once and keeps the name. `DumperTests` hold its output to
/// custom-dump's over a corpus of shapes. It reads only custom-dump's public
/// protocols (`CustomDumpStringConvertible`, `CustomDumpRepresentable`,
/// `CustomDumpReflectable`): its underscored hook for observable classes
/// (`_CustomDiffObject`) is not honoured, such a class dumps as any class.
package struct Dumper {
    /// `value` as `String(customDumping: value)` writes it.
    package static func dump(_ value: Any) -> String {
        var dumper = Dumper()
        do {
            return try dumper.dump(value, name: nil, nameSuffix: ":", indent: 0, isRoot: true, maxDepth: .max)
        } catch {
            return String(customDumping: value)
        }
    }

    /// custom-dump's name for `type`: no module prefixes, `T?`, `[T]` and
    /// `[K: V]` for the standard containers, generic arguments dropped.
    package static func typeName(_ type: Any.Type) -> String {
        typeNames.name(of: type)
    }

    private static let typeNames = TypeNameCache(computeTypeName)

    /// custom-dump's own rewriting (its `typeName`), run once per type.
    private static func computeTypeName(_ type: Any.Type) -> String {
        func replacing(_ name: String, _ pattern: String, _ template: String) -> String {
            name.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        var name = replacing(_typeName(type, qualified: true), #"\(unknown context at \$[[:xdigit:]]+\)\."#, "")
        for _ in 1...10 {  // as deep as custom-dump goes
            var abbreviated = replacing(name, #"\bSwift.Optional<([^><]+)>"#, "$1?")
            abbreviated = replacing(abbreviated, #"\bSwift.Array<([^><]+)>"#, "[$1]")
            abbreviated = replacing(abbreviated, #"\bSwift.Dictionary<([^,<]+), ([^><]+)>"#, "[$1: $2]")
            if abbreviated == name { break }
            name = abbreviated
        }
        name = replacing(name, #"\w+\.([\w.]+)"#, "$1")
        return replacing(name, #"<.+>"#, "")
    }

    /// A shape this walker leaves to custom-dump.
    package struct Unsupported: Error {}

    // custom-dump numbers repeated class instances: `#1 Node(…)`, `Node(↩︎)` for a cycle.
    private var idPerItem: [ObjectIdentifier: UInt] = [:]
    private var occurrencePerType: [String: UInt] = [:]
    private var visitedItems: Set<ObjectIdentifier> = []

    /// custom-dump's `_customDump`: this dumper keeps its tracker (the
    /// numbering of class instances) across calls, as a diff needs.
    package mutating func dump(
        _ value: Any, name: String?, nameSuffix: String = ":", indent: Int, isRoot: Bool, maxDepth: Int
    ) throws -> String {
        let out = try body(of: value, named: name != nil, isRoot: isRoot, maxDepth: maxDepth)
        let labelled = name.map { "\($0)\(nameSuffix) " + out } ?? out
        return indent == 0 ? labelled : Self.indenting(labelled, by: indent)
    }

    /// The value's dump without its label: custom-dump's cases, in its order.
    private mutating func body(of value: Any, named: Bool, isRoot: Bool, maxDepth: Int) throws -> String {
        let traits = Traits.of(value)
        // Numbers, booleans and strings: no mirror needed.
        if traits.isScalar { return Self.scalar(value, named: named, maxDepth: maxDepth) }
        // custom-dump's casts below would see through an optional to what it
        // wraps; unwrapping first gives the same text with casts that depend
        // on the type alone, so their answers can be kept per type.
        if traits.isOptional {
            guard let wrapped = (value as? any OptionalType)?.wrapped else { return "nil" }
            return try body(of: wrapped, named: false, isRoot: false, maxDepth: maxDepth)
        }
        if traits.isMetatype, let type = value as? Any.Type { return "\(Self.typeName(type)).self" }
        if traits.isConvertible, let convertible = value as? any CustomDumpStringConvertible {
            if let date = value as? Date, let text = DateDump.text(date) { return text }
            return convertible.customDumpDescription
        }
        if traits.isRepresentable, let representable = value as? any CustomDumpRepresentable {
            return try body(of: representable.customDumpValue, named: false, isRoot: false, maxDepth: maxDepth)
        }
        if !traits.isReflectable, let fields = StructFields.children(of: value) {
            // A plain struct (what a state mostly is): its default mirror would say `.struct` and list these; none is made.
            return try dumpChildren(
                fields.filter(ValueChildren.isShownProperty), all: fields, style: .struct, prefix: "\(Self.typeName(type(of: value)))(", suffix: ")",
                maxDepth: maxDepth)
        }
        let mirror = traits.isReflectable ? ValueChildren.mirror(value) : Mirror(reflecting: value)
        let all = ValueChildren.children(of: value, mirror)
        switch mirror.displayStyle {
        case .class?:
            return try dumpObject(value as AnyObject, mirror, maxDepth: maxDepth, filtered: !traits.isReflectable)
        case .collection?:
            let children = all.enumerated().map { (label: "[\($0.offset)]" as String?, value: $0.element.value) }
            return try dumpChildren(children, all: all, style: mirror.displayStyle, prefix: "[", suffix: "]", maxDepth: maxDepth)
        case .dictionary?:
            return all.isEmpty ? "[:]" : try dumpDictionary(all, of: mirror, maxDepth: maxDepth)
        case .enum?:
            var out = isRoot ? "\(Self.typeName(mirror.subjectType))." : "."
            if let child = all.first {
                let childMirror = ValueChildren.mirror(child.value)
                let associated =
                    childMirror.displayStyle == .tuple
                    ? childMirror : Mirror(value, unlabeledChildren: [child.value], displayStyle: .tuple)
                let children = Array(associated.children)
                out += try dumpChildren(
                    ValueChildren.unlabelPositional(children), all: children, style: associated.displayStyle,
                    prefix: "\(child.label ?? "@unknown")(", suffix: ")", maxDepth: maxDepth)
            } else {
                out += "\(value)"
            }
            return out
        case .optional?:
            guard let wrapped = all.first?.value else { return "nil" }
            return try body(of: wrapped, named: false, isRoot: false, maxDepth: maxDepth)
        case .set?:
            var children = all
            if mirror.subjectType is any UnorderedCollection.Type, !children.isEmpty {
                children = try sorted(children) { $0.value }
            }
            return try dumpChildren(children, all: all, style: mirror.displayStyle, prefix: "Set([", suffix: "])", maxDepth: maxDepth)
        case .struct?:
            let children = traits.isReflectable ? all : all.filter(ValueChildren.isShownProperty)
            return try dumpChildren(
                children, all: all, style: mirror.displayStyle, prefix: "\(Self.typeName(mirror.subjectType))(", suffix: ")", maxDepth: maxDepth)
        case .tuple?:
            return try dumpChildren(
                ValueChildren.unlabelPositional(all), all: all, style: mirror.displayStyle, prefix: "(", suffix: ")", maxDepth: maxDepth)
        default:
            return Self.scalar(value, named: named, maxDepth: maxDepth)
        }
    }

    private mutating func dumpObject(_ object: AnyObject, _ mirror: Mirror, maxDepth: Int, filtered: Bool) throws -> String {
        let item = ObjectIdentifier(object)
        let typeName = Self.typeName(mirror.subjectType)
        let occurrence = occurrencePerType[typeName, default: 0]
        let id = idPerItem[item, default: occurrence]
        idPerItem[item] = id
        let prefix = id > 0 ? "#\(id) " : ""
        if visitedItems.contains(item) { return prefix + "\(typeName)(↩︎)" }
        visitedItems.insert(item)
        occurrencePerType[typeName] = occurrence + 1
        let children = ValueChildren.objectChildren(mirror)
        // Its own and its superclasses' children, flattened as custom-dump does into a mirror with no display style.
        return prefix
            + (try dumpChildren(
                filtered ? children.filter(ValueChildren.isShownProperty) : children, all: children, style: nil,
                prefix: "\(typeName)(", suffix: ")", maxDepth: maxDepth))
    }

    private mutating func dumpDictionary(_ all: [Mirror.Child], of mirror: Mirror, maxDepth: Int) throws -> String {
        var children = all
        if mirror.subjectType is any UnorderedCollection.Type {
            children = try sorted(children) { ($0.value as? (key: AnyHashable, value: Any))?.key.base }
        }
        // Each entry is labelled with its key's dump.
        children = try children.map { child in
            guard let pair = child.value as? (key: AnyHashable, value: Any) else { return child }
            return (try dump(pair.key.base, name: nil, nameSuffix: ":", indent: 0, isRoot: false, maxDepth: maxDepth - 1), pair.value)
        }
        return try dumpChildren(children, all: all, style: mirror.displayStyle, prefix: "[", suffix: "]", maxDepth: maxDepth)
    }

    /// Sorted by their one-level dumps, as custom-dump orders dictionary keys and set members.
    private mutating func sorted(_ children: [Mirror.Child], by key: (Mirror.Child) -> Any?) throws -> [Mirror.Child] {
        let keyed = try children.map { child -> (String?, Mirror.Child) in
            guard let key = key(child) else { return (nil, child) }
            return (try dump(key, name: nil, nameSuffix: ":", indent: 0, isRoot: false, maxDepth: 1), child)
        }
        // Children whose key cannot be read keep custom-dump's "not less than anything" place.
        guard keyed.allSatisfy({ $0.0 != nil }) else { return children }
        return keyed.sorted { ($0.0 ?? "") < ($1.0 ?? "") }.map(\.1)
    }

    /// `prefix`, the children (on one line when the mirror has a single simple
    /// one, else `children`, one per line, indented), `suffix`. `all` are the
    /// mirror's own children, which decide the layout as they do in custom-dump.
    private mutating func dumpChildren(
        _ children: [Mirror.Child], all: [Mirror.Child], style: Mirror.DisplayStyle?, prefix: String, suffix: String, maxDepth: Int
    ) throws -> String {
        var out = prefix
        if !all.isEmpty {
            if Self.isSingleValueContainer(style, children: all) {
                // custom-dump prints the mirror's own first child here, unfiltered and unmapped.
                let child = try dump(all[0].value, name: all[0].label, nameSuffix: ":", indent: 0, isRoot: false, maxDepth: maxDepth - 1)
                if child.utf8.contains(UInt8(ascii: "\n")) {
                    out += maxDepth <= 0 ? "…" : "\n" + Self.indenting(child, by: 2) + "\n"
                } else {
                    out += child
                }
            } else if maxDepth <= 0 {
                out += "…"
            } else {
                out += "\n"
                for (offset, child) in children.enumerated() {
                    out += try dump(child.value, name: child.label, nameSuffix: ":", indent: 2, isRoot: false, maxDepth: maxDepth - 1)
                    if offset != children.count - 1 { out += "," }
                    out += "\n"
                }
            }
        }
        return out + suffix
    }

    /// custom-dump's `Mirror.isSingleValueContainer`, of a mirror whose display style is `style` and whose children are `children`.
    package static func isSingleValueContainer(_ style: Mirror.DisplayStyle?, children: [Mirror.Child]) -> Bool {
        switch style {
        case .collection?, .dictionary?, .set?:
            return false
        default:
            guard children.count == 1, let child = children.first else { return false }
            let traits = Traits.of(child.value)
            if traits.isScalar { return true }
            // A plain value (no custom-dump conformance, not an optional that could wrap one): its mirror decides.
            if !traits.isOptional, !traits.isRepresentable, !traits.isConvertible {
                return ValueChildren.hasNoChildren(child.value)
            }
            var value = child.value
            while let representable = value as? any CustomDumpRepresentable {
                value = representable.customDumpValue
            }
            if let convertible = child.value as? any CustomDumpStringConvertible {
                return child.value is Date || !convertible.customDumpDescription.utf8.contains(UInt8(ascii: "\n"))
            }
            if Traits.of(value).isScalar { return true }
            return ValueChildren.hasNoChildren(value)
        }
    }

    /// Strings quoted as custom-dump quotes them (raw `#"…"#` when they hold
    /// quotes or backslashes, `"""` blocks when they span lines); anything
    /// else as `String(describing:)`.
    private static func scalar(_ value: Any, named: Bool, maxDepth: Int) -> String {
        // The commonest scalar, printed without `String(describing:)`'s protocol casts.
        if let integer = value as? Int { return String(integer) }
        guard let string = value as? any StringProtocol else { return "\(value)" }
        let text = String(string)
        if text.contains(where: \.isNewline) {
            if maxDepth <= 0 { return "\"…\"" }
            let hashes = String(repeating: "#", count: hashCount(text, isMultiline: true))
            let body = named ? indenting(text, by: 2) : text
            return "\(hashes)\"\"\"\n\(body)\n" + (named ? "  \"\"\"\(hashes)" : "\"\"\"\(hashes)")
        }
        if text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            let hashes = String(repeating: "#", count: max(hashCount(text, isMultiline: false), 1))
            return "\(hashes)\"\(text)\"\(hashes)"
        }
        return text.debugDescription
    }

    /// How many `#` a raw string needs: the longest run of `#` after a closing
    /// quote (`"` or `"""`) inside it, plus one for a single quote.
    package static func hashCount(_ text: String, isMultiline: Bool) -> Int {
        let quote = Array((isMultiline ? "\"\"\"" : "\"").utf8)
        let offset = isMultiline ? 2 : 0
        let bytes = Array(text.utf8)
        var index = 0
        var count = 0
        while index < bytes.count {
            guard bytes[index...].starts(with: quote) else {
                index += 1
                continue
            }
            var end = index + quote.count
            while end < bytes.count, bytes[end] == UInt8(ascii: "#") { end += 1 }
            count = max(count, end - index - offset)
            index = end
        }
        return count
    }

    package static func indenting(_ text: String, by count: Int) -> String {
        count > 0 ? prefixingLines(text, with: String(repeating: " ", count: count)) : text
    }

    /// Every line of `text` begun with `prefix`.
    package static func prefixingLines(_ text: String, with prefix: String) -> String {
        var out = prefix
        out.reserveCapacity(text.utf8.count + 2 * prefix.utf8.count)
        // Line by line on UTF-8: a newline byte is never part of a longer character.
        var lineStart = text.utf8.startIndex
        for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: "\n") {
            out += text[lineStart...index]
            out += prefix
            lineStart = text.utf8.index(after: index)
        }
        out += text[lineStart...]
        return out
    }
}
