import Foundation

/// What both ends of an attach session agree on beyond the generated code.
package enum AttachProtocol {
    /// The protocol both ends speak; the app refuses a shell that speaks
    /// another, naming both (bump it with any change a peer would misread).
    package static let version: UInt32 = 2
    /// The metadata key each call's token travels under.
    package static let tokenKey = "karc-token"
    /// Largest message either end sends or accepts (a command, a batch of
    /// output, a file): bigger ones are refused with a clear error.
    package static let defaultMaxMessageBytes = 8 << 20
    /// Output bytes an app holds for one shell before it waits (a script)
    /// or lets records go (`lost N records`) at a prompt.
    package static let outputHighWater = 4 << 20
    /// The credit for lines an app gives a shell (see ``LineCredit``): what
    /// it holds of a shell's lines at most.
    package static let defaultLineCredit = 1 << 20
    /// What a line costs beyond its UTF-8 bytes: holding it as a `String`
    /// in a queue (the protocol's `LINE_OVERHEAD`).
    package static let lineOverhead = 64
    /// The hello's first command when the shell asks for an inspector
    /// (`karc attach --inspect`, and again after a reconnection): the app
    /// starts it before any command, numbered as none.
    package static let inspectCommand = ":inspect"
}
