/// Why an endpoint could not listen: the whole message.
public struct EndpointError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
