import CustomDump
import Foundation

/// custom-dump's `diff(_:_:)`, text for text, at the cost of what changed.
///
/// The walk is custom-dump's, case for case: two values of one type are
/// opened by their mirrors, their children paired, unchanged ones printed
/// at depth zero (`items: […]`) or folded (`… (9,999 unchanged)`), changed
/// ones walked into, and what cannot be paired dumped whole on `-` and `+`
/// lines. What it does differently is how it finds the unchanged parts:
///
///     old, new ──▶ Unchanged (bits, then == or mirrors) ──▶ equal: one line
///                    │
///                    ▼ changed
///                  children paired ──▶ arrays: the common beginning in
///                    │                  one memcmp pass, the rest paired by
///                    ▼                  the same Myers difference
///                  each changed child walked, each unchanged run folded
///
/// so a state of 10,000 elements with one appended costs a pass of
/// `memcmp` over the array and the dump of one element, where custom-dump
/// compares and boxes every element through its mirror. `StateDiffTests`
/// hold the text to custom-dump's on every shape they cover, small and large.
/// The shape it does not walk (a class instance) goes to custom-dump whole.
package struct StateDiff {
    /// custom-dump's diff of `old` and `new`; nil when nothing changed.
    /// `prefixes` keeps what was compared, for the JSON tree of the same change.
    package static func text(_ old: Any, _ new: Any, prefixes: ComparedPrefixes = ComparedPrefixes()) -> String? {
        guard !Unchanged.check(old, new, prefixes: prefixes) else { return nil }
        var differ = StateDiff(prefixes: prefixes)
        do {
            return try differ.lines(old, new)
        } catch {
            guard SnapshotNode.in(old) != nil else { return CustomDump.diff(old, new) }
        }
        // custom-dump diffs what this walk does not (two class instances) with
        // the old value, which a snapshot does not keep: such a pair is printed
        // whole, `-` the old instance and `+` the new.
        var whole = StateDiff(prefixes: prefixes)
        whole.classesWhole = true
        return (try? whole.lines(old, new)) ?? Self.prefixing(ValueText.dump(new), with: "+")
    }

    private mutating func lines(_ old: Any, _ new: Any) throws -> String {
        var out = try diff(old, new, oldName: nil, newName: nil, separator: "", indent: 0, isRoot: true, unchanged: false)
        if out.last == "\n" { out.removeLast() }
        return out
    }

    /// Two class instances (or custom-dump's diff objects) printed whole rather than walked into.
    private var classesWhole = false

    /// Shared by every dump of one diff, as custom-dump shares its tracker.
    package var dumper = Dumper()
    /// The arrays this diff compared, and how much of each is unchanged.
    package let prefixes: ComparedPrefixes

    package mutating func dump(_ value: Any, name: String?, indent: Int, isRoot: Bool, maxDepth: Int) throws -> String {
        try dumper.dump(value, name: name, indent: indent, isRoot: isRoot, maxDepth: maxDepth)
    }

    /// custom-dump's `diffHelp`: the lines of one pair of values, each
    /// prefixed `-`, `+` or a space. `unchanged`, when the caller already
    /// compared the two, is its answer.
    package mutating func diff(
        _ old: Any, _ new: Any, oldName: String?, newName: String?, separator: String, indent: Int, isRoot: Bool,
        unchanged: Bool? = nil
    ) throws -> String {
        let newName = newName ?? oldName
        if let snapshot = SnapshotNode.in(old) {
            return try diff(snapshot, new, name: newName, separator: separator, indent: indent, isRoot: isRoot, unchanged: unchanged)
        }
        if oldName == newName, unchanged ?? Unchanged.check(old, new, prefixes: prefixes) {
            return Self.prefixing(try dump(old, name: newName, indent: indent, isRoot: isRoot, maxDepth: 0) + separator, with: " ")
        }
        if let plain = try plainStructs(old, new, oldName: oldName, newName: newName, separator: separator, indent: indent, isRoot: isRoot) {
            return plain
        }
        let oldMirror = ValueChildren.mirror(old)
        let newMirror = ValueChildren.mirror(new)
        let pair = Pair(
            old: old, new: new, oldMirror: oldMirror, newMirror: newMirror, oldName: oldName, newName: newName,
            separator: separator, indent: indent, isRoot: isRoot)
        guard oldMirror.subjectType == newMirror.subjectType else { return try everything(pair) }

        let casts = Casts(old, new)
        switch (oldMirror.displayStyle, newMirror.displayStyle) {
        case _ where casts.convertible:
            return try everything(pair)
        case _ where casts.representable:
            // The casts cannot fail: the case above just checked them.
            let before = (old as! any CustomDumpRepresentable).customDumpValue
            let after = (new as! any CustomDumpRepresentable).customDumpValue
            return try diff(before, after, oldName: oldName, newName: newName, separator: separator, indent: indent, isRoot: isRoot)
        case (.class?, .class?):
            if classesWhole { return try everything(pair) }
            throw Dumper.Unsupported()
        case (.collection?, .collection?):
            return try collection(pair)
        case (.dictionary?, .dictionary?):
            return try dictionary(pair)
        case (.enum?, .enum?):
            return try enumCase(pair)
        case (.optional?, .optional?):
            guard let before = oldMirror.children.first?.value, let after = newMirror.children.first?.value else {
                return try everything(pair)
            }
            return try diff(before, after, oldName: oldName, newName: newName, separator: separator, indent: indent, isRoot: isRoot)
        case (.set?, .set?):
            return try set(pair)
        case (.struct?, .struct?):
            // Macro-generated storage (`_$observationRegistrar`) is left out unless the type chose its own mirror.
            let filter: ((Mirror.Child) -> Bool)? = casts.reflectable ? nil : { ValueChildren.isShownProperty($0) }
            var lists = ChildLists(
                ValueChildren.children(of: old, oldMirror), ValueChildren.children(of: new, newMirror), filter: filter, prefixes: prefixes)
            return try children(pair, &lists, prefix: "\(Dumper.typeName(oldMirror.subjectType))(", suffix: ")", collapse: false)
        case (.tuple?, .tuple?):
            var lists = ChildLists(Array(oldMirror.children), Array(newMirror.children), prefixes: prefixes)
            return try children(pair, &lists, prefix: "(", suffix: ")", collapse: false, transform: Self.unlabelPositional)
        default:
            return try multiLineString(pair) ?? everything(pair)
        }
    }

    /// Two plain structs of one type (what a state mostly is), walked as the
    /// `.struct` case above walks them, their fields read without a mirror
    /// (``StructFields``: a mirror costs ten allocations); nil for any other pair.
    private mutating func plainStructs(
        _ old: Any, _ new: Any, oldName: String?, newName: String?, separator: String, indent: Int, isRoot: Bool
    ) throws -> String? {
        let type = Swift.type(of: old)
        guard type == Swift.type(of: new) else { return nil }
        // The casts the case above asks first, which a plain struct answers by its type.
        let traits = Traits.of(old)
        guard !traits.isOptional, !traits.isConvertible, !traits.isRepresentable, !traits.isReflectable,
            let before = StructFields.children(of: old), let after = StructFields.children(of: new)
        else { return nil }
        let pair = Pair(
            old: old, new: new, oldMirror: nil, newMirror: nil, oldName: oldName, newName: newName, separator: separator, indent: indent,
            isRoot: isRoot, singleValue: Self.isSingleValueContainer(plainStruct: before) || Self.isSingleValueContainer(plainStruct: after))
        var lists = ChildLists(before, after, filter: { ValueChildren.isShownProperty($0) }, prefixes: prefixes)
        return try children(pair, &lists, prefix: "\(Dumper.typeName(type))(", suffix: ")", collapse: false)
    }

    /// The lines of a snapshot (``StateSnapshot``) and the value it was
    /// taken of, now: what the same walk prints for the old value itself.
    /// A snapshot is only ever a plain struct or an array, of the value's
    /// type: the struct's and the collection's cases above, with the
    /// snapshot's parts on the old side. Where the walk would print the old
    /// value unchanged, it prints the new one, equal to it.
    private mutating func diff(
        _ snapshot: SnapshotNode, _ new: Any, name: String?, separator: String, indent: Int, isRoot: Bool, unchanged: Bool?
    ) throws -> String {
        if unchanged ?? snapshot.isUnchanged(new, prefixes: prefixes) {
            return Self.prefixing(try dump(new, name: name, indent: indent, isRoot: isRoot, maxDepth: 0) + separator, with: " ")
        }
        if case .fields(let type, let children) = snapshot.kind, Swift.type(of: new) == type, let fields = StructFields.children(of: new) {
            // A plain struct, as ``plainStructs(_:_:oldName:newName:separator:indent:isRoot:)`` walks a pair: no mirror.
            let pair = Pair(
                old: new, new: new, oldMirror: nil, newMirror: nil, oldName: name, newName: name, separator: separator, indent: indent,
                isRoot: isRoot, singleValue: Self.isSingleValueContainer(plainStruct: fields))
            var lists = ChildLists(children, fields, filter: { ValueChildren.isShownProperty($0) }, prefixes: prefixes)
            return try self.children(pair, &lists, prefix: "\(Dumper.typeName(type))(", suffix: ")", collapse: false)
        }
        let mirror = ValueChildren.mirror(new)
        let pair = Pair(
            old: new, new: new, oldMirror: mirror, newMirror: mirror, oldName: name, newName: name, separator: separator, indent: indent,
            isRoot: isRoot)
        switch snapshot.kind {
        case .fields(let type, let children):
            guard mirror.subjectType == type, mirror.displayStyle == .struct else { throw Dumper.Unsupported() }
            var lists = ChildLists(
                children, ValueChildren.children(of: new, mirror), filter: { ValueChildren.isShownProperty($0) }, prefixes: prefixes)
            return try self.children(pair, &lists, prefix: "\(Dumper.typeName(type))(", suffix: ")", collapse: false)
        case .elements(let elements):
            guard mirror.displayStyle == .collection else { throw Dumper.Unsupported() }
            var lists = ChildLists(array: elements, new, prefixes: prefixes)
            return try children(pair, &lists, prefix: "[", suffix: "]", collapse: true) { child, offset in child.label = "[\(offset)]" }
        }
    }

    /// custom-dump's casts of a pair of values of one type. A cast sees
    /// through an optional to what it wraps, so an optional's answers are
    /// the values' own; any other type's are its ``Traits``, kept per type.
    private struct Casts {
        var convertible: Bool
        var representable: Bool
        var reflectable: Bool

        init(_ old: Any, _ new: Any) {
            let traits = Traits.of(old)
            if traits.isOptional {
                convertible = old is any CustomDumpStringConvertible && new is any CustomDumpStringConvertible
                representable = old is any CustomDumpRepresentable && new is any CustomDumpRepresentable
                reflectable = old is any CustomDumpReflectable
            } else {
                convertible = traits.isConvertible
                representable = traits.isRepresentable
                reflectable = traits.isReflectable
            }
        }
    }

    /// One pair being diffed, with what custom-dump's `diffHelp` knows of it.
    package struct Pair {
        package var old: Any
        package var new: Any
        /// The mirrors, made when first asked for if not given (two plain structs need none).
        private var reflectedOld: Mirror?
        private var reflectedNew: Mirror?
        package var oldName: String?
        package var newName: String?
        package var separator: String
        package var indent: Int
        package var isRoot: Bool
        /// Whether either is a single-value container, when that was told
        /// from their fields already (two plain structs); else their mirrors tell.
        package var singleValue: Bool?

        package init(
            old: Any, new: Any, oldMirror: Mirror?, newMirror: Mirror?, oldName: String?, newName: String?, separator: String, indent: Int,
            isRoot: Bool, singleValue: Bool? = nil
        ) {
            (self.old, self.new, reflectedOld, reflectedNew) = (old, new, oldMirror, newMirror)
            (self.oldName, self.newName, self.separator, self.indent, self.isRoot) = (oldName, newName, separator, indent, isRoot)
            self.singleValue = singleValue
        }

        package var oldMirror: Mirror {
            get { reflectedOld ?? ValueChildren.mirror(old) }
            set { reflectedOld = newValue }
        }

        package var newMirror: Mirror {
            get { reflectedNew ?? ValueChildren.mirror(new) }
            set { reflectedNew = newValue }
        }
    }

    /// Both values dumped whole: `-` the old, `+` the new.
    private mutating func everything(_ pair: Pair) throws -> String {
        var before = try dump(pair.old, name: pair.oldName, indent: pair.indent, isRoot: pair.isRoot, maxDepth: .max)
        var after = try dump(pair.new, name: pair.newName, indent: pair.indent, isRoot: pair.isRoot, maxDepth: .max)
        if before == after, pair.oldMirror.subjectType != pair.newMirror.subjectType {
            before += " as \(Dumper.typeName(pair.oldMirror.subjectType))"
            after += " as \(Dumper.typeName(pair.newMirror.subjectType))"
        }
        return Self.prefixing(before + pair.separator, with: "-") + "\n" + Self.prefixing(after + pair.separator, with: "+")
    }

    private mutating func collection(_ pair: Pair) throws -> String {
        let label: (inout Mirror.Child, Int) -> Void = { child, offset in child.label = "[\(offset)]" }
        if let before = pair.old as? any ContiguousElements, type(of: pair.old) == type(of: pair.new) {
            var lists = ChildLists(array: before, pair.new, prefixes: prefixes)
            return try children(pair, &lists, prefix: "[", suffix: "]", collapse: true, transform: label)
        }
        var lists = ChildLists(Array(pair.oldMirror.children), Array(pair.newMirror.children), equivalent: ChildLists.sameOrIdentified)
        return try children(pair, &lists, prefix: "[", suffix: "]", collapse: true, transform: label)
    }

    private mutating func dictionary(_ pair: Pair) throws -> String {
        var lists = ChildLists(
            Array(pair.oldMirror.children), Array(pair.newMirror.children),
            equivalent: { old, new in
                guard let before = old.value as? (key: AnyHashable, value: Any), let after = new.value as? (key: AnyHashable, value: Any) else {
                    return Unchanged.check(old.value, new.value)
                }
                return before.key == after.key
            })
        let unordered = pair.oldMirror.subjectType is any UnorderedCollection.Type
        if unordered {
            lists.sort { value in (value as? (key: AnyHashable, value: Any)).map { $0.key.base } ?? value }
        }
        // Each entry is shown as `key: value`, the key dumped one level deep.
        return try children(pair, &lists, prefix: "[", suffix: "]", collapse: true, sorted: unordered) { child, _ in
            guard let entry = child.value as? (key: AnyHashable, value: Any) else { return }
            child = (label: ChildLists.keyDump(entry.key.base), value: entry.value)
        }
    }

    private mutating func set(_ pair: Pair) throws -> String {
        var lists = ChildLists(Array(pair.oldMirror.children), Array(pair.newMirror.children), equivalent: ChildLists.sameOrIdentified)
        let unordered = pair.oldMirror.subjectType is any UnorderedCollection.Type
        if unordered { lists.sort { $0 } }
        return try children(pair, &lists, prefix: "Set([", suffix: "])", collapse: true, sorted: unordered)
    }

    private mutating func enumCase(_ pair: Pair) throws -> String {
        guard let before = pair.oldMirror.children.first, let after = pair.newMirror.children.first,
            let caseName = before.label, caseName == after.label
        else {
            return try everything(pair)
        }
        func associated(_ value: Any, _ child: Mirror.Child) -> Mirror {
            let mirror = ValueChildren.mirror(child.value)
            return mirror.displayStyle == .tuple ? mirror : Mirror(value, unlabeledChildren: [child.value], displayStyle: .tuple)
        }
        var inner = pair
        inner.oldMirror = associated(pair.old, before)
        inner.newMirror = associated(pair.new, after)
        var lists = ChildLists(Array(inner.oldMirror.children), Array(inner.newMirror.children))
        let typeName = pair.isRoot ? Dumper.typeName(pair.oldMirror.subjectType) : ""
        return try children(inner, &lists, prefix: "\(typeName).\(caseName)(", suffix: ")", collapse: false, transform: Self.unlabelPositional)
    }

    /// Strings of several lines are diffed line by line, inside `"""`.
    private mutating func multiLineString(_ pair: Pair) throws -> String? {
        guard let before = (pair.old as? any StringProtocol).map({ "\($0)" }), let after = (pair.new as? any StringProtocol).map({ "\($0)" }),
            before.contains(where: \.isNewline) || after.contains(where: \.isNewline)
        else { return nil }
        func lines(_ text: String) -> [Line] {
            text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map { Line(rawValue: $0) }
        }
        var inner = pair
        inner.oldMirror = Mirror(reflecting: lines(before))
        inner.newMirror = Mirror(reflecting: lines(after))
        let hashes = String(repeating: "#", count: max(Dumper.hashCount(before, isMultiline: true), Dumper.hashCount(after, isMultiline: true)))
        var lists = ChildLists(Array(inner.oldMirror.children), Array(inner.newMirror.children), equivalent: ChildLists.sameOrIdentified)
        return try children(
            inner, &lists, prefix: "\(hashes)\"\"\"", suffix: pair.newName != nil ? "  \"\"\"\(hashes)" : "\"\"\"\(hashes)",
            elementIndent: pair.newName != nil ? 2 : 0, separator: "", collapse: false)
    }

    /// A line of a multi-line string, as custom-dump pairs and prints it.
    private struct Line: CustomDumpStringConvertible, Identifiable {
        var rawValue: Substring
        var id: Substring { rawValue }
        var customDumpDescription: String { String(rawValue) }
    }

    /// Tuple elements without a label are named `.0`, `.1`…: custom-dump prints them bare (``ValueChildren/unlabelPositional(_:)``, in place).
    private static func unlabelPositional(_ child: inout Mirror.Child, _ offset: Int) {
        if child.label?.first == "." { child.label = nil }
    }

    /// Every line of `text` begun with `mark` and a space, as custom-dump marks diff lines.
    package static func prefixing(_ text: String, with mark: Character) -> String {
        Dumper.prefixingLines(text, with: "\(mark) ")
    }
}
