import KarcAsync
import KarcLanguage
import Synchronization

/// Which events the shell prints (`:events on|off|only T…|mute T…`).
enum EventFilter: Equatable {
    case all
    case none
    case only(Set<String>)
    case mute(Set<String>)

    /// Whether an event of type `typeName` is printed.
    func shows(_ typeName: String) -> Bool {
        switch self {
        case .all: return true
        case .none: return false
        case .only(let types): return types.contains { Names.namesType($0, typeName) }
        case .mute(let types): return !types.contains { Names.namesType($0, typeName) }
        }
    }
}

/// The event type names printed so far: the session adds them, the prompt's
/// completion (on the editor's thread) reads them.
package final class SeenEvents: Sendable {
    private let names = KarcMutex<[String]>([])

    package init() {}

    func insert(_ name: String) {
        names.withLock { if !$0.contains(name) { $0.append(name) } }
    }

    package var all: [String] { names.withLock { $0 } }
}
