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
