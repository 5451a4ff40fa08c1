import DequeModule

/// What a session keeps of its past (`:history`, `:save`, `:export-test`),
/// at most ``limit`` entries: past it the oldest go, and ``dropped``
/// counts them, so a session of a million commands holds the last ones in
/// a fixed amount of memory and still numbers them as they were.
struct BoundedLog<Element> {
    private(set) var entries: Deque<Element> = []
    /// How many were dropped from the front.
    private(set) var dropped = 0
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var count: Int { entries.count }

    /// How many were ever added: the number the next one gets, less one.
    var total: Int { dropped + entries.count }

    mutating func append(_ element: Element) {
        entries.append(element)
        trim()
    }

    /// Puts `element` where the entry numbered `position` (from 0, counting
    /// those dropped) is; dropped at once when that entry was dropped.
    mutating func insert(_ element: Element, at position: Int) {
        let index = position - dropped
        guard index >= 0 else {
            dropped += 1
            return
        }
        entries.insert(element, at: min(index, entries.count))
        trim()
    }

    /// Changes the entry numbered `number` (from 1, counting those
    /// dropped), unless it was dropped.
    mutating func update(_ number: Int, _ change: (inout Element) -> Void) {
        let index = number - 1 - dropped
        guard entries.indices.contains(index) else { return }
        change(&entries[index])
    }

    /// The entry numbered `number` (from 1, counting those dropped), unless it was dropped.
    func entry(_ number: Int) -> Element? {
        let index = number - 1 - dropped
        return entries.indices.contains(index) ? entries[index] : nil
    }

    private mutating func trim() {
        while entries.count > limit {
            entries.removeFirst()
            dropped += 1
        }
    }
}
