import KarcLanguage

/// A part of a state named by a path, for `:state TARGET PATH`:
/// `items[3]`, `items[3].title`, `user.email`, `tags["env"]`. Fields match
/// as command fields do (kebab or camel case); `[n]` picks the nth element
/// of a list, `[key]` (quoted or not) the value of a dictionary's key.
package enum StatePath {
    package enum Step: Hashable {
        case field(String)
        case index(Int)
        case key(String)
    }

    /// The steps of `path`, or what is wrong with it (at which character, 1-based).
    package static func parse(_ path: String) -> Result<[Step], PathError> {
        var steps: [Step] = []
        var characters = Array(path)[...]
        var position = 1
        func fail(_ message: String) -> Result<[Step], PathError> { .failure(PathError(offset: position, message: message)) }
        var expectsName = true
        while let first = characters.first {
            if first == "[", characters.dropFirst().first == "\"" {
                // A quoted key, as a path writes it (`["a b"]`, `["say \"hi\""]`): read as the command language reads a string.
                let key: (value: String, length: Int)
                do {
                    key = try LineParser.string(startingWith: characters.dropFirst())
                } catch {
                    return fail(error.message.hasPrefix("unterminated") ? "unclosed '[\"' in the path: a quoted key ends with \"]" : error.message)
                }
                let rest = characters.dropFirst(1 + key.length)
                guard rest.first == "]" else { return fail("unclosed '[\"' in the path: a quoted key ends with \"]") }
                guard !key.value.isEmpty else { return fail("empty '[]' in the path: write [3] or [\"key\"]") }
                steps.append(.key(key.value))
                position += key.length + 2
                characters = rest.dropFirst()
                expectsName = false
                continue
            }
            if first == "[" {
                guard let close = characters.firstIndex(of: "]") else { return fail("unclosed '[' in the path") }
                var inside = String(characters[characters.index(after: characters.startIndex)..<close])
                if let index = Int(inside) {
                    steps.append(.index(index))
                } else {
                    if inside.count >= 2, inside.first == "\"", inside.last == "\"" { inside = String(inside.dropFirst().dropLast()) }
                    guard !inside.isEmpty else { return fail("empty '[]' in the path: write [3] or [\"key\"]") }
                    steps.append(.key(inside))
                }
                position += characters.distance(from: characters.startIndex, to: close) + 1
                characters = characters[characters.index(after: close)...]
                expectsName = false
                continue
            }
            if first == "." {
                guard !expectsName || steps.isEmpty == false else { return fail("a path starts with a field name") }
                characters = characters.dropFirst()
                position += 1
                expectsName = true
                continue
            }
            let name = characters.prefix { $0 != "." && $0 != "[" }
            guard expectsName else { return fail("expected '.' or '[' before '\(String(name))'") }
            steps.append(.field(String(name)))
            position += name.count
            characters = characters.dropFirst(name.count)
            expectsName = false
        }
        if expectsName, !steps.isEmpty { return fail("the path ends with '.'") }
        return steps.isEmpty ? fail("an empty path") : .success(steps)
    }

    package struct PathError: Error, Equatable {
        package let offset: Int
        package let message: String
        /// The path names a field its struct does not have: a typo, not a part
        /// absent now (an index past the end, a key not set, a nil, another
        /// enum case), so no change of the state can make it appear. (Not a
        /// class's: its mirror leaves out the fields it inherits.)
        package let neverThere: Bool

        package init(offset: Int, message: String, neverThere: Bool = false) {
            self.offset = offset
            self.message = message
            self.neverThere = neverThere
        }
    }

    /// The part of `value` at `steps`, or why there is none.
    package static func resolve(_ value: Any, _ steps: [Step]) -> Result<Any, PathError> {
        var current = value
        var walked = ""
        for step in steps {
            let value = ValueChildren.unwrapped(current)
            let mirror = ValueChildren.mirror(value)
            switch step {
            case .field(let name):
                let labelled = ValueChildren.children(of: value, mirror).filter(ValueChildren.isShownProperty).compactMap { child in
                    child.label.map { ($0, child.value) }
                }
                guard let found = labelled.first(where: { $0.0 == name }) ?? labelled.first(where: { Names.matches(name, $0.0) }) else {
                    let names = labelled.map(\.0)
                    let inside = walked.isEmpty ? ValueText.typeName(current) : walked
                    // A dictionary's values are picked by key, not by field: the step meant, spelt.
                    if mirror.displayStyle == .dictionary {
                        return .failure(
                            PathError(
                                offset: 0,
                                message:
                                    "\(inside) is a dictionary: a value is picked by its key, \(walked)\(Self.text([.key(name)]))",
                                neverThere: true))
                    }
                    return .failure(
                        PathError(
                            offset: 0,
                            message: "no field '\(name)' in \(inside)" + Names.didYouMean(name, among: names)
                                + (names.isEmpty ? " It has no fields." : " Fields: \(names.joined(separator: ", "))"),
                            neverThere: mirror.displayStyle == .struct))
                }
                current = found.1
                walked += walked.isEmpty ? found.0 : ".\(found.0)"
            case .index(let given):
                guard mirror.displayStyle == .collection || mirror.displayStyle == .set else {
                    return .failure(
                        PathError(
                            offset: 0, message: "\(walked.isEmpty ? "the state" : walked) is not a list: [\(given)] picks an element of one",
                            neverThere: Self.keepsItsShape(mirror)))
                }
                let elements = ValueChildren.children(of: value, mirror)
                // `[-1]` is the last element, `[-2]` the one before it.
                let index = given < 0 ? elements.count + given : given
                guard elements.indices.contains(index) else {
                    return .failure(
                        PathError(
                            offset: 0,
                            message:
                                "index \(given) is out of range: \(walked.isEmpty ? "the state" : walked) has \(elements.count) element\(elements.count == 1 ? "" : "s")"
                        ))
                }
                current = elements[index].value
                walked += "[\(given)]"
            case .key(let key):
                guard mirror.displayStyle == .dictionary else {
                    return .failure(
                        PathError(
                            offset: 0,
                            message: "\(walked.isEmpty ? "the state" : walked) is not a dictionary: \(Self.text([.key(key)])) picks a value of one",
                            neverThere: Self.keepsItsShape(mirror)))
                }
                let pairs = ValueChildren.entries(of: mirror)
                guard let pair = pairs.first(where: { "\($0.key)" == key || ValueText.dump($0.key) == key }) else {
                    let keys = pairs.map { "\($0.key)" }.sorted()
                    guard !keys.isEmpty else {
                        return .failure(PathError(offset: 0, message: "no key \(key) in \(walked.isEmpty ? "the state" : walked): it is empty"))
                    }
                    return .failure(
                        PathError(
                            offset: 0,
                            message: "no key \(key) in \(walked.isEmpty ? "the state" : walked)" + Names.didYouMean(key, among: keys)
                                + " Keys: \(keys.prefix(20).joined(separator: ", "))\(keys.count > 20 ? ", …" : "")"))
                }
                current = pair.value
                walked += "[\(ValueText.dump(pair.key))]"
            }
        }
        return .success(current)
    }

    /// Whether a value of this shape is of it whatever the state becomes:
    /// a list, a set, a struct or a tuple stays one (an optional may become
    /// something, an enum another case).
    private static func keepsItsShape(_ mirror: Mirror) -> Bool {
        switch mirror.displayStyle {
        case .collection?, .set?, .struct?, .tuple?, .dictionary?: true
        default: false
        }
    }

    // MARK: Completion

    /// The paths one step below the part `typed` ends in, that start with
    /// it: `items[0].t` gives `items[0].title`, `items[` the elements'
    /// `items[0]`, `items[1]`…, `` (nothing) the state's fields. A list
    /// offers its first `limit` elements; nothing when `typed` names no part.
    package static func completions(in state: Any, typed: String, limit: Int = 100) -> [String] {
        let cut = lastStep(in: typed)
        let parentText = String(typed[..<cut])
        var parent = state
        if !parentText.isEmpty {
            guard case .success(let steps) = parse(parentText), case .success(let part) = resolve(state, steps) else { return [] }
            parent = part
        }
        let value = ValueChildren.unwrapped(parent)
        let mirror = ValueChildren.mirror(value)
        let steps: [String]
        switch mirror.displayStyle {
        case .collection, .set:
            steps = (0..<min(limit, ValueChildren.children(of: value, mirror).count)).map { "[\($0)]" }
        case .dictionary:
            // A string key as a path writes it (read back by `parse`, quotes and all); any other as it dumps.
            steps = ValueChildren.entries(of: mirror).prefix(limit).map {
                ($0.key as? String).map { Self.text([.key($0)]) } ?? "[\(ValueText.dump($0.key))]"
            }
            .sorted()
        default:
            steps = ValueChildren.children(of: value, mirror).filter(ValueChildren.isShownProperty).compactMap(\.label).map {
                parentText.isEmpty ? $0 : "." + $0
            }
        }
        return steps.map { parentText + $0 }.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
    }

    /// Where the last step of `typed` starts: its `.` or `[` outside a
    /// bracket or a quoted key, or the start.
    private static func lastStep(in typed: String) -> String.Index {
        var cut = typed.startIndex
        var (depth, quoted) = (0, false)
        var index = typed.startIndex
        while index < typed.endIndex {
            let character = typed[index]
            if quoted {
                if character == "\\" { index = typed.index(after: index) } else if character == "\"" { quoted = false }
            } else {
                switch character {
                case "\"": quoted = depth > 0
                case "[":
                    if depth == 0 { cut = index }
                    depth += 1
                case "]": depth = max(0, depth - 1)
                case "." where depth == 0: cut = index
                default: break
                }
            }
            if index < typed.endIndex { index = typed.index(after: index) }
        }
        return cut
    }
}
