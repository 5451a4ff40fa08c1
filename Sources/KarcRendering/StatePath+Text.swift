import KarcLanguage

extension StatePath {
    /// `steps` written as a path: `items[3].likes`, `tags["env"]`; empty for none.
    package static func text(_ steps: [Step]) -> String {
        var text = ""
        for step in steps {
            switch step {
            case .field(let name): text += text.isEmpty ? name : "." + name
            case .index(let index): text += "[\(index)]"
            // A string key quoted as `parse` reads it back (the command language's string).
            case .key(let key): text += Int(key) != nil ? "[\(key)]" : "[\(LineParser.literal(key))]"
            }
        }
        return text
    }

    /// Whether a step typed (`like-count`, `[3]`) names the step a change has (`likeCount`, the key `3`).
    package static func matches(_ typed: Step, _ step: Step) -> Bool {
        switch (typed, step) {
        case (.field(let typed), .field(let name)): Names.matches(typed, name)
        case (.index(let typed), .index(let index)): typed == index
        case (.key(let typed), .key(let key)): typed == key
        case (.index(let typed), .key(let key)): String(typed) == key
        default: false
        }
    }

    /// How the part at `watched` relates to a change at `changed`.
    package enum Overlap {
        /// Not at all: one is not inside the other.
        case apart
        /// The change is at the part or inside it.
        case inside
        /// The change is around the part (it replaced, added or removed what holds it): the rest of the path, from the change's value.
        case around(rest: [Step])
    }

    package static func overlap(of watched: [Step], with changed: [Step]) -> Overlap {
        for (typed, step) in zip(watched, changed) where !matches(typed, step) { return .apart }
        return changed.count >= watched.count ? .inside : .around(rest: Array(watched.dropFirst(changed.count)))
    }
}

extension StatePath {
    /// The part of `value` at `steps`, or nil when there is none; `value`
    /// may be a snapshot (``StateSnapshot``) and a list's element is taken
    /// where it lies, so finding a part of a long list costs its depth, not its length.
    package static func part(of value: Any, at steps: [Step]) -> Any? {
        var current = value
        for step in steps {
            if let node = SnapshotNode.in(current) {
                switch (node.kind, step) {
                case (.fields(_, let children), .field(let name)):
                    guard
                        let child = children.first(where: { $0.label == name })
                            ?? children.first(where: { $0.label.map { Names.matches(name, $0) } == true })
                    else { return nil }
                    current = child.value
                case (.elements(let elements), .index(let given)):
                    let index = given < 0 ? elements.count + given : given
                    guard index >= 0, index < elements.count else { return nil }
                    current = elements.element(at: index)
                default:
                    return nil
                }
                continue
            }
            let unwrapped = ValueChildren.unwrapped(current)
            if case .index(let given) = step, let elements = unwrapped as? any ContiguousElements {
                // `[-1]`: the last element.
                let index = given < 0 ? elements.count + given : given
                guard index >= 0, index < elements.count else { return nil }
                current = elements.element(at: index)
                continue
            }
            guard case .success(let found) = resolve(unwrapped, [step]) else { return nil }
            current = found
        }
        return current
    }

    /// `steps` with each index from the end (`[-1]`) made the index it names
    /// in `value` now (`[4]` in a list of five), so it matches the paths a
    /// change was kept under; an index whose list is not there stays as it is.
    package static func concrete(_ steps: [Step], in value: Any) -> [Step] {
        guard steps.contains(where: { if case .index(let index) = $0 { index < 0 } else { false } }) else { return steps }
        var concrete: [Step] = []
        for step in steps {
            if case .index(let given) = step, given < 0, let list = part(of: value, at: concrete) {
                let unwrapped = ValueChildren.unwrapped(list)
                let count =
                    (unwrapped as? any ContiguousElements)?.count ?? SnapshotNode.in(list).flatMap { node in
                        if case .elements(let elements) = node.kind { elements.count } else { nil }
                    } ?? ValueChildren.children(of: unwrapped, ValueChildren.mirror(unwrapped)).count
                concrete.append(.index(count + given))
            } else {
                concrete.append(step)
            }
        }
        return concrete
    }
}
