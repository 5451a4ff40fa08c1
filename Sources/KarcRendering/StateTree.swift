import KarcLanguage

/// A state seen one part at a time, as the inspector's page shows it: the
/// part a path names (``StatePath``), and a page of its children, never the
/// whole state. A state of 10,000 elements costs a page what it shows.
///
/// Works on a state and on a snapshot of one (``StateSnapshot``), the way
/// ``StatePath/part(of:at:)`` does: a past state is read where it is kept.
package enum StateTree {
    /// What a part is, for the page to draw it.
    package struct Part: Equatable {
        package enum Kind: String {
            /// A struct, class, tuple or enum case with a payload: named children.
            case fields
            /// An array or set: numbered children.
            case list
            /// A dictionary: children by key.
            case dictionary
            /// A value printed whole (a string, a number, an enum case without payload, nil).
            case value
        }

        package let kind: Kind
        /// Its type's name, as the dump prints it (`Article`, `[Article]`).
        package let type: String
        /// How many children it has (0 for a value).
        package let count: Int
        /// A value's text as `:state` prints it, cut past ``textLimit`` characters.
        package let text: String?

        package init(kind: Kind, type: String, count: Int, text: String?) {
            (self.kind, self.type, self.count, self.text) = (kind, type, count, text)
        }
    }

    /// A value's text longer than this is cut with `…`.
    package static let textLimit = 500

    /// What `value` is.
    package static func part(_ value: Any) -> Part {
        let (kind, children) = childrenAndKind(of: value)
        let shown = shownValue(value)
        if kind == .value {
            var text = ValueText.dump(shown)
            if text.count > textLimit { text = String(text.prefix(textLimit)) + "…" }
            return Part(kind: .value, type: typeName(of: value), count: 0, text: text)
        }
        return Part(kind: kind, type: typeName(of: value), count: children.count, text: nil)
    }

    /// `value`'s children from `offset`, at most `limit`, with the step that names each.
    package static func children(of value: Any, offset: Int = 0, limit: Int = .max) -> [(step: StatePath.Step, value: Any)] {
        let all = childrenAndKind(of: value).children
        let start = min(max(0, offset), all.count)
        let end = start + min(max(0, limit), all.count - start)
        return (start..<end).map { all[$0]() }
    }

    /// The paths of the parts of `value` whose name or text contains `text`
    /// (case-insensitively), depth first, at most `limit`; `visits` bounds
    /// the parts looked at, so a search of a huge state ends.
    package static func search(_ value: Any, for text: String, limit: Int = 100, visits: Int = 200_000) -> (paths: [String], complete: Bool) {
        let wanted = text.lowercased()
        guard !wanted.isEmpty else { return ([], true) }
        var found: [String] = []
        var left = visits
        var stack: [(steps: [StatePath.Step], value: Any)] = [([], value)]
        while let (steps, current) = stack.popLast() {
            guard left > 0 else { return (found, false) }
            left -= 1
            let (kind, children) = childrenAndKind(of: current)
            let name = steps.last.map { StatePath.text([$0]) } ?? ""
            var matches = name.lowercased().contains(wanted)
            if !matches, kind == .value { matches = ValueText.dump(shownValue(current)).lowercased().contains(wanted) }
            if matches, !steps.isEmpty {
                found.append(StatePath.text(steps))
                if found.count >= limit { return (found, false) }
            }
            // Reversed: the first child is looked at first.
            for child in children.reversed() {
                let (step, part) = child()
                stack.append((steps + [step], part))
            }
        }
        return (found, true)
    }

    /// An optional's value, unless it is nil (shown as `nil`).
    private static func shownValue(_ value: Any) -> Any {
        ValueChildren.unwrapped(value)
    }

    private static func typeName(of value: Any) -> String {
        if let node = SnapshotNode.in(value) {
            switch node.kind {
            case .fields(let type, _): return Dumper.typeName(type)
            case .elements: return "list"
            }
        }
        return Dumper.typeName(Swift.type(of: value))
    }

    /// Each child made when asked: a page of a long list reads that page.
    private static func childrenAndKind(of value: Any) -> (kind: Part.Kind, children: LazyChildren) {
        if let node = SnapshotNode.in(value) {
            switch node.kind {
            case .fields(_, let children):
                let shown = children.filter(ValueChildren.isShownProperty)
                return (.fields, LazyChildren(count: shown.count) { (.field(shown[$0].label ?? ".\($0)"), shown[$0].value) })
            case .elements(let elements):
                return (.list, LazyChildren(count: elements.count) { (.index($0), elements.element(at: $0)) })
            }
        }
        let unwrapped = shownValue(value)
        let traits = Traits.of(unwrapped)
        if traits.isScalar || traits.isConvertible || traits.isMetatype || unwrapped is any OptionalType {
            return (.value, LazyChildren(count: 0) { _ in (.index(0), unwrapped) })
        }
        if let elements = unwrapped as? any ContiguousElements {
            return (.list, LazyChildren(count: elements.count) { (.index($0), elements.element(at: $0)) })
        }
        let mirror = ValueChildren.mirror(unwrapped)
        switch mirror.displayStyle {
        case .collection?, .set?:
            let elements = ValueChildren.children(of: unwrapped, mirror)
            return (.list, LazyChildren(count: elements.count) { (.index($0), elements[$0].value) })
        case .dictionary?:
            let sorted = SortedEntries(mirror)
            return (.dictionary, LazyChildren(count: mirror.children.count) { (.key(sorted.entries[$0].key), sorted.entries[$0].value) })
        case .class?:
            let fields = ValueChildren.objectChildren(mirror).filter(ValueChildren.isShownProperty)
            return fields.isEmpty ? (.value, LazyChildren(count: 0) { _ in (.index(0), unwrapped) }) : named(fields)
        default:
            let fields = ValueChildren.children(of: unwrapped, mirror).filter(ValueChildren.isShownProperty)
            return fields.isEmpty ? (.value, LazyChildren(count: 0) { _ in (.index(0), unwrapped) }) : named(fields)
        }
    }

    private static func named(_ fields: [Mirror.Child]) -> (kind: Part.Kind, children: LazyChildren) {
        (.fields, LazyChildren(count: fields.count) { (.field(fields[$0].label ?? ".\($0)"), fields[$0].value) })
    }

    /// A dictionary's entries in the order of their keys' text, sorted when
    /// the first is read: counting them (``part(_:)``) sorts nothing. One
    /// entry a child, always: a child that is not a (key, value) pair (a
    /// custom mirror's) is an entry under its label, so the count is the
    /// mirror's.
    private final class SortedEntries {
        private let mirror: Mirror
        private(set) lazy var entries: [(key: String, value: Any)] = mirror.children.enumerated()
            .map { index, child in
                let pair = Mirror(reflecting: child.value).children
                guard pair.count == 2, let key = pair.first?.value, let value = pair.dropFirst().first?.value else {
                    return (key: child.label ?? "\(index)", value: child.value)
                }
                return (key: "\(key)", value: value)
            }
            .sorted { $0.key < $1.key }

        init(_ mirror: Mirror) { self.mirror = mirror }
    }

    /// A part's children, each made when read.
    private struct LazyChildren {
        let count: Int
        let make: (Int) -> (step: StatePath.Step, value: Any)

        init(count: Int, _ make: @escaping (Int) -> (step: StatePath.Step, value: Any)) {
            self.count = count
            self.make = make
        }

        subscript(index: Int) -> () -> (step: StatePath.Step, value: Any) { { make(index) } }

        func reversed() -> [() -> (step: StatePath.Step, value: Any)] { (0..<count).reversed().map { self[$0] } }
    }
}
