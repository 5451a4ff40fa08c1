/// Why a storage could not save, restore or purge; each case names the file.
public enum PersistenceError: Error, Equatable, CustomStringConvertible {
    /// The key cannot be a file name.
    case invalidKey(String)
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The file was read but does not hold a state of the expected shape; it is left as it was.
    case corrupt(path: String, reason: String)
    /// The state could not be encoded, or the file could not be written.
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidKey(let key):
            "persistence key \"\(key)\" cannot be a file name: use 1 to 200 letters, digits, '-', '_' or '.', not starting with '.'"
        case .unreadable(let path, let reason):
            "cannot read persisted state \(path): \(reason)"
        case .corrupt(let path, let reason):
            "persisted state \(path) is corrupt (left untouched): \(reason)"
        case .unwritable(let path, let reason):
            "cannot save state to \(path): \(reason)"
        }
    }
}
