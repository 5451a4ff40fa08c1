import Foundation

/// A directory of one test's own under the system's temporary directory,
/// removed with everything in it when the last reference to it goes (a suite
/// holds one as a stored property: Swift Testing makes an instance for each
/// test and drops it after).
public final class ScratchDirectory: Sendable {
    public let path: String

    /// Creates `NSTemporaryDirectory()/PREFIX-UUID`.
    public init(_ prefix: String) {
        path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` in the directory, unique when `name` is not given.
    public func file(_ name: String = UUID().uuidString) -> String {
        path + "/" + name
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
