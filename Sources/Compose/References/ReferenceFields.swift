import KarcReflection
import KarcSynchronization

/// What an identified value is known by in a tree: its type and its identifier.
struct ReferenceKey: Hashable, Sendable {
    let type: ObjectIdentifier
    let id: any Hashable & Sendable
    /// For messages: `SpecimenModel "MY-MODEL-ID"`.
    let description: String

    init<Value: Identifiable>(_ value: Value) where Value.ID: Sendable {
        type = ObjectIdentifier(Value.self)
        id = value.id
        description = "\(Value.self) \(String(reflecting: value.id))"
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        func same<ID: Hashable>(_ id: ID) -> Bool { (rhs.id as? ID) == id }
        return lhs.type == rhs.type && same(lhs.id)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(id)
    }
}

/// One identified value a state holds, where it holds it.
struct ReferenceEntry: Sendable {
    let key: ReferenceKey
    let value: any Sendable

    /// Whether `other` is the same value (both are of the key's type).
    func holds(_ other: any Sendable) -> Bool {
        func equal<Value: Equatable>(_ value: Value) -> Bool { (other as? Value) == value }
        // Every entry's value is a `Ref`'s or `RefCollection`'s `Value`, which is `Equatable`.
        guard let value = value as? any Equatable else { return false }
        return equal(value)
    }
}

/// The `@Ref` and `@RefCollection` properties of a state type, found once
/// per type: its stored properties, and those of the structs it holds,
/// each reached by a writable key path from the standard library's
/// `_forEachFieldWithKeyPath` (no memory is read or written but through
/// key paths of the state's own type). References inside arrays,
/// dictionaries, enums or optionals are not looked for.
struct ReferenceFields<State>: Sendable {
    private let fields: [any ReferenceField<State>]

    /// Nil when `State` holds no reference: its store has nothing to do with them.
    static var of: ReferenceFields? {
        let key = ObjectIdentifier(State.self)
        if let known = learnt.withLock({ $0[key] }) { return known as? ReferenceFields }
        let fields = ReferenceFields(fields: find(depth: 0))
        learnt.withLock { $0[key] = fields.fields.isEmpty ? Learnt.none : fields }
        return fields.fields.isEmpty ? nil : fields
    }

    /// Every identified value `state` holds, in declaration (and list) order.
    func entries(in state: State) -> [ReferenceEntry] {
        fields.flatMap { $0.entries(in: state) }
    }

    /// Gives every place in `state` that holds `key` the value `value`;
    /// whether anything changed.
    func write(_ value: any Sendable, for key: ReferenceKey, into state: inout State) -> Bool {
        var changed = false
        for field in fields where field.write(value, for: key, into: &state) { changed = true }
        return changed
    }

    /// The reference fields of `State`: its own, and, through a field of a
    /// struct type, that struct's (a key path is never appended to another:
    /// the standard library's offset-based key paths do not survive it).
    private static func find(depth: Int) -> [any ReferenceField<State>] {
        var found: [any ReferenceField<State>] = []
        for (_, path) in TypeFields.keyPaths(of: State.self) ?? [] {
            let valueType = Swift.type(of: path).valueType
            if let wrapper = valueType as? any ReferenceWrapper.Type {
                if let field = wrapper.field(at: path, in: State.self) { found.append(field) }
            } else if depth < 8, isOwnStruct(valueType) {
                func nested<Inner>(_: Inner.Type) -> (any ReferenceField<State>)? {
                    guard let outer = path as? WritableKeyPath<State, Inner> else { return nil }
                    let inner = ReferenceFields<Inner>.find(depth: depth + 1)
                    return inner.isEmpty ? nil : NestedField(place: SendablePath(path: outer), fields: inner)
                }
                if let field = nested(valueType) { found.append(field) }
            }
        }
        return found
    }

    /// A struct of the app's own, worth looking into: not the standard
    /// library's or Foundation's (an `Array`'s storage holds no `@Ref`).
    private static func isOwnStruct(_ type: Any.Type) -> Bool {
        // The runtime's metadata kind: 0x200 is a struct. A class's stored references are
        // not the state's to write through, so only structs are looked into.
        guard MetadataKind(of: type) == .struct else { return false }
        let name = String(reflecting: type)
        return !["Swift.", "Foundation.", "FoundationEssentials.", "Compose."].contains { name.hasPrefix($0) }
    }
}

/// What each state type was found to hold, by type: its `ReferenceFields`, or `Learnt.none`.
private let learnt = Locked<[ObjectIdentifier: any Sendable]>([:])

/// A state type found to hold no reference.
private enum Learnt: Sendable { case none }

/// `Ref` and `RefCollection`, whatever their value type: what makes a field of theirs.
protocol ReferenceWrapper {
    static func field<State>(at path: AnyKeyPath, in: State.Type) -> (any ReferenceField<State>)?
}

/// A `@Ref` or `@RefCollection` property of a state, where it lies.
protocol ReferenceField<State>: Sendable {
    associatedtype State
    func entries(in state: State) -> [ReferenceEntry]
    func write(_ value: any Sendable, for key: ReferenceKey, into state: inout State) -> Bool
}

/// A struct-typed field of a state, and the reference fields inside it.
private struct NestedField<State, Inner>: ReferenceField {
    let place: SendablePath<State, Inner>
    let fields: [any ReferenceField<Inner>]

    func entries(in state: State) -> [ReferenceEntry] {
        let inner = state[keyPath: place.path]
        return fields.flatMap { $0.entries(in: inner) }
    }

    func write(_ value: any Sendable, for key: ReferenceKey, into state: inout State) -> Bool {
        var changed = false
        for field in fields where field.write(value, for: key, into: &state[keyPath: place.path]) { changed = true }
        return changed
    }
}

/// A key path is immutable once made: sharing one between tasks is safe.
private struct SendablePath<Root, Value>: @unchecked Sendable {
    let path: WritableKeyPath<Root, Value>
}

extension Ref: ReferenceWrapper {
    static func field<State>(at path: AnyKeyPath, in _: State.Type) -> (any ReferenceField<State>)? {
        (path as? WritableKeyPath<State, Ref>).map { RefField(place: SendablePath(path: $0)) }
    }

    private struct RefField<State>: ReferenceField {
        let place: SendablePath<State, Ref>

        func entries(in state: State) -> [ReferenceEntry] {
            state[keyPath: place.path].value.map { [ReferenceEntry(key: ReferenceKey($0), value: $0)] } ?? []
        }

        func write(_ value: any Sendable, for key: ReferenceKey, into state: inout State) -> Bool {
            guard let value = value as? Value, let current = state[keyPath: place.path].value,
                ReferenceKey(current) == key, current != value
            else { return false }
            state[keyPath: place.path].value = value
            return true
        }
    }
}

extension RefCollection: ReferenceWrapper {
    static func field<State>(at path: AnyKeyPath, in _: State.Type) -> (any ReferenceField<State>)? {
        (path as? WritableKeyPath<State, RefCollection>).map { CollectionField(place: SendablePath(path: $0)) }
    }

    private struct CollectionField<State>: ReferenceField {
        let place: SendablePath<State, RefCollection>

        func entries(in state: State) -> [ReferenceEntry] {
            state[keyPath: place.path].wrappedValue.map { ReferenceEntry(key: ReferenceKey($0), value: $0) }
        }

        func write(_ value: any Sendable, for key: ReferenceKey, into state: inout State) -> Bool {
            guard let value = value as? Value else { return false }
            var changed = false
            for index in state[keyPath: place.path].wrappedValue.indices {
                let element = state[keyPath: place.path].wrappedValue[index]
                guard ReferenceKey(element) == key, element != value else { continue }
                state[keyPath: place.path].wrappedValue[index] = value
                changed = true
            }
            return changed
        }
    }
}
