import Foundation

/// `json` decoded as a `Value`, as a generated test builds the commands
/// and states it cannot write as Swift literals (their initializers may
/// not be public; their `Codable` conformance is).
public func decoded<Value: Decodable>(_ type: Value.Type, json: String) throws -> Value {
    try JSONDecoder().decode(type, from: Data(json.utf8))
}
