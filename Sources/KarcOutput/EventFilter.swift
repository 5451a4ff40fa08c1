import KarcAsync
import KarcLanguage
import Synchronization

/// Which events the shell prints (`:events on|off|only T…|mute T…`); the
/// types as typed, each once.
package enum EventFilter: Equatable {
    case all
    case none
    case only([String])
    case mute([String])

    /// The filter as `:events` shows it.
    package var setting: OutputEvent.Setting {
        switch self {
        case .all: OutputEvent.Setting(name: "events", value: "on", text: "events on: every event is printed")
        case .none: OutputEvent.Setting(name: "events", value: "off", text: "events off: no event is printed (:events on)")
        case .only(let types):
            OutputEvent.Setting(
                name: "events", value: "only", types: types, text: "events only \(types.joined(separator: ", ")): no other event is printed")
        case .mute(let types):
            OutputEvent.Setting(
                name: "events", value: "mute", types: types, text: "events mute \(types.joined(separator: ", ")): every other event is printed")
        }
    }

    /// Whether an event of type `typeName` is printed.
    package func shows(_ typeName: String) -> Bool {
        switch self {
        case .all: return true
        case .none: return false
        case .only(let types): return types.contains { Names.namesType($0, typeName) }
        case .mute(let types): return !types.contains { Names.namesType($0, typeName) }
        }
    }
}
