/// The name of what started a trace when its root is not a send
/// (`emitter clock`, `restore`), as a small number: a ``TraceLink`` is then
/// plain data, copied by the word with no reference count to touch, on
/// every send of an observed app.
///
/// A name is given its number once, for the life of the process; an app has
/// a few (one per emitter or timer that starts work), so the table stays small.
package struct TraceOrigin: Sendable, Hashable {
    /// 0: no origin (a send started the trace, and its own record names it).
    let id: UInt32

    /// No origin.
    package static let none = TraceOrigin(id: 0)

    private init(id: UInt32) { self.id = id }

    /// The number of `name`, given now if it has none yet.
    package init(_ name: String?) {
        guard let name else {
            self = .none
            return
        }
        id = Self.table.withLock { table in
            if let id = table.ids[name] { return id }
            table.names.append(name)
            let id = UInt32(table.names.count)
            table.ids[name] = id
            return id
        }
    }

    /// The name, or nil for ``none``.
    package var name: String? {
        guard id != 0 else { return nil }
        return Self.table.withLock { $0.names[Int(id) - 1] }
    }

    private struct Table {
        var names: [String] = []
        var ids: [String: UInt32] = [:]
    }

    private static let table = KarcMutex(Table())
}
