import DequeModule
import KarcSynchronization

/// The name of what started a trace when its root is not a send
/// (`emitter clock`, `timer counter.tick`, `restore`), as a number: a
/// ``TraceLink`` is then plain words, copied by the byte with no reference
/// count to touch, on every step of every send an observer links (one
/// reference held instead cost a watched app's send 5–9%).
///
/// The numbers are slots of a process-wide table of the names in use,
/// bounded: an app has a few such names, but a timer's names its model,
/// and an app that makes models as it runs (one a session, say) would grow
/// an unbounded table for ever. Past ``capacity`` names the oldest name's
/// slot is given to the new one; a link made with the old name reads no
/// origin from then on (a slot's generation tells them apart).
package struct TraceOrigin: Sendable, Hashable {
    /// The slot (low 16 bits) and its generation (high 16 bits); 0: no origin.
    let id: UInt32

    /// No origin (a send started the trace, and its own record names it).
    package static var none: TraceOrigin { TraceOrigin(id: 0) }

    /// Names held at most.
    static let capacity = 1 << 16 - 1

    init(id: UInt32) { self.id = id }

    /// The number of `name`, given now if it has none.
    package init(_ name: String?) {
        guard let name else {
            self = .none
            return
        }
        self = Self.table.withLock { $0.origin(of: name) }
    }

    /// The name; nil for ``none``, and for a name whose slot was given to a newer one.
    package var name: String? {
        guard id != 0 else { return nil }
        return Self.table.withLock { $0.name(of: self) }
    }

    private static let table = KarcMutex(TraceOriginTable(capacity: capacity))
}

/// The names of ``TraceOrigin``s in use: a bounded table whose oldest
/// name's slot goes to a new name once it is full (the slot's generation
/// moves on, so an origin made with the old name reads none).
package struct TraceOriginTable {
    /// Slot `i` (from 1) at `i - 1`: its generation and name.
    private var slots: [(generation: UInt16, name: String?)] = []
    private var ids: [String: UInt32] = [:]
    /// Slots in the order their names came, oldest first.
    private var order: Deque<Int> = []
    let capacity: Int

    /// At most `capacity` names (1...65,535).
    package init(capacity: Int) {
        self.capacity = min(max(1, capacity), 0xFFFF)
    }

    /// The origin named `name`, given a slot now if it has none.
    package mutating func origin(of name: String) -> TraceOrigin {
        if let id = ids[name] { return TraceOrigin(id: id) }
        let slot: Int
        if slots.count < capacity {
            slots.append((0, nil))
            slot = slots.count
        } else {
            // Full: the oldest name's slot, a generation on.
            // Proof for `!`: the table is full, and `order` holds each of its slots once.
            slot = order.popFirst()!
            if let old = slots[slot - 1].name { ids[old] = nil }
            slots[slot - 1].generation &+= 1
        }
        slots[slot - 1].name = name
        order.append(slot)
        let id = UInt32(slots[slot - 1].generation) << 16 | UInt32(slot)
        ids[name] = id
        return TraceOrigin(id: id)
    }

    /// The name of `origin`; nil for none, and for one whose slot went to a newer name.
    package func name(of origin: TraceOrigin) -> String? {
        let slot = Int(origin.id & 0xFFFF)
        guard slot >= 1, slot <= slots.count, slots[slot - 1].generation == UInt16(origin.id >> 16) else { return nil }
        return slots[slot - 1].name
    }
}
