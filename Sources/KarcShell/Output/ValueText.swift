import CustomDump
import Foundation

/// How the shell writes values: custom-dump text for people, JSON for tools.
enum ValueText {
    /// The value as custom-dump prints it (`Counter(count: 2)`).
    static func dump(_ value: Any) -> String {
        String(customDumping: value)
    }

    /// The name of the value's type, without module prefixes.
    static func typeName(_ value: Any) -> String {
        String(describing: type(of: value))
    }

    /// The value as a JSON-compatible object when it is `Encodable`, else its dump.
    static func json(_ value: Any) -> Any {
        if let encodable = value as? any Encodable,
           let data = try? encoder.encode(encodable),
           let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
            return object
        }
        return dump(value)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// A failure carried by a reply (`Result.failure`), if it is one.
    static func failure(in reply: Any) -> (any Error)? {
        (reply as? any FailableReply)?.failure
    }
}

/// A reply that may be a failure: `Result`.
protocol FailableReply {
    var failure: (any Error)? { get }
}

extension Result: FailableReply {
    var failure: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
