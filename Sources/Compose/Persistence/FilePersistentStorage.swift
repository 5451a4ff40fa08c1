import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stores a state as JSON in `<directory>/<key>.json`.
///
/// The directory is ``defaultDirectory`` unless given:
/// `$XDG_DATA_HOME/karc`, or `~/.local/share/karc` when `XDG_DATA_HOME` is
/// unset or not absolute. It is created (mode 0700) on the first save; the
/// file is written with mode 0600.
///
/// Saves are atomic (temporary file, fsync, rename): after a crash the file
/// holds the old state or the new one. A file that cannot be read or decoded
/// gives a ``PersistenceError`` naming it, and is never modified by a
/// restore.
public struct FilePersistentStorage: AnyPersistentStorage {
    /// The name of the stored value (its file name).
    public let key: String
    /// The directory its file is in.
    public let directory: String

    /// Stores the value named `key` in `directory` (default: ``defaultDirectory``).
    public init(key: String, directory: String? = nil) {
        self.key = key
        self.directory = directory ?? Self.defaultDirectory
    }

    /// The file the state is stored in.
    public var path: String {
        "\(directory)/\(key).json"
    }

    /// `$XDG_DATA_HOME/karc`, or `$HOME/.local/share/karc`.
    public static var defaultDirectory: String {
        defaultDirectory(environment: ProcessInfo.processInfo.environment)
    }

    static func defaultDirectory(environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return "\(data)/karc"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return "\(home)/.local/share/karc"
    }

    public func save<Value: Encodable>(_ value: Value) throws {
        try save(value, crashAfter: nil)
    }

    /// `save`, stopped after `crashAfter` bytes when given (tests simulate a crash with it).
    func save<Value: Encodable>(_ value: Value, crashAfter: Int?) throws {
        try validateKey()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw PersistenceError.unwritable(path: path, reason: "cannot encode \(Value.self): \(error)")
        }
        try AtomicFile.write(data, to: path, crashAfter: crashAfter)
    }

    public func restore<Value: Decodable>(_ type: Value.Type) throws -> Value? {
        try validateKey()
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch CocoaError.fileReadNoSuchFile {
            return nil
        } catch {
            throw PersistenceError.unreadable(path: path, reason: Self.reason(error))
        }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch let error as DecodingError {
            throw PersistenceError.corrupt(path: path, reason: Self.describe(error))
        } catch {
            throw PersistenceError.corrupt(path: path, reason: "\(error)")
        }
    }

    public func purge() throws {
        try validateKey()
        guard unlink(path) == 0 || errno == ENOENT else {
            throw PersistenceError.unwritable(path: path, reason: "cannot delete: \(String(cString: strerror(errno)))")
        }
    }

    private func validateKey() throws {
        let allowed = key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
        guard allowed, !key.isEmpty, key.count <= 200, !key.hasPrefix(".") else {
            throw PersistenceError.invalidKey(key)
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return (error as NSError).localizedDescription
    }

    /// A one-line account of a decoding error: what is wrong, and where in the JSON.
    static func describe(_ error: DecodingError) -> String {
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "at the top level" : "at " + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "not valid JSON \(at(context.codingPath))" + (underlying.map { ": \($0)" } ?? ": \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" \(at(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "expected \(type) \(at(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "expected \(type), found null, \(at(context.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }
}
