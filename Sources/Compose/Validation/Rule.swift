/// A check a ``Field`` applies to its value.
///
/// Define your own by extending `Rule`:
///
/// ```swift
/// extension Rule where Value == String {
///     static var lowercase: Rule { Rule("lowercase", "must be lowercase") { $0 == $0.lowercased() } }
/// }
/// ```
public struct Rule<Value> {
    /// A short name (`nonEmpty`, `email`, `length(6...1000)`), for failures without a message.
    public let name: String
    /// What a valid value is, as the end of a sentence: "must not be empty".
    public let requirement: String
    private let check: (Value) -> Bool

    /// A rule named `name` (with what it requires, for messages) that `check` decides.
    public init(_ name: String, _ requirement: String? = nil, check: @escaping (Value) -> Bool) {
        self.name = name
        self.requirement = requirement ?? "must satisfy \(name)"
        self.check = check
    }

    /// Whether `value` satisfies the rule.
    public func validate(_ value: Value) -> Bool {
        check(value)
    }
}

extension Rule where Value: Collection {
    /// The value is not empty.
    public static var nonEmpty: Rule {
        Rule("nonEmpty", "must not be empty") { !$0.isEmpty }
    }

    /// The value's length (`count`) lies in `range`.
    public static func length(_ range: ClosedRange<Int>) -> Rule {
        Rule("length(\(range))", "must have \(range.lowerBound) to \(range.upperBound) elements") { range.contains($0.count) }
    }

    /// The value has at least `range.lowerBound` elements.
    public static func length(_ range: PartialRangeFrom<Int>) -> Rule {
        Rule("length(\(range.lowerBound)...)", "must have at least \(range.lowerBound) elements") { range.contains($0.count) }
    }
}

extension Rule where Value == String {
    /// The string's length in characters lies in `range`.
    public static func length(_ range: ClosedRange<Int>) -> Rule {
        Rule("length(\(range))", "must be \(range.lowerBound) to \(range.upperBound) characters long") { range.contains($0.count) }
    }

    /// The string is at least `range.lowerBound` characters long.
    public static func length(_ range: PartialRangeFrom<Int>) -> Rule {
        Rule("length(\(range.lowerBound)...)", "must be at least \(range.lowerBound) characters long") { range.contains($0.count) }
    }
}

extension Rule where Value: Equatable {
    /// The value equals `other` (a repeated password, say).
    public static func equal(to other: Value) -> Rule {
        Rule("equal", "must match") { $0 == other }
    }
}

extension Rule where Value: StringProtocol {
    /// The value looks like an email address: `local@domain.tld`, where the
    /// local part uses letters, digits and `._%+-`, the domain letters,
    /// digits, `-` and dots, and the top-level domain is 2 to 64 letters (the
    /// pattern the seed gave NSPredicate, which Linux does not have).
    public static var email: Rule {
        Rule("email", "must be an email address like name@example.com") { isEmail(String($0)) }
    }
}

private func isEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty else { return false }
    let isLocal: (Unicode.Scalar) -> Bool = { $0.isASCIIAlphanumeric || "._%+-".unicodeScalars.contains($0) }
    guard parts[0].unicodeScalars.allSatisfy(isLocal) else { return false }
    let domain = parts[1]
    guard let dot = domain.lastIndex(of: ".") else { return false }
    let host = domain[..<dot]
    let topLevel = domain[domain.index(after: dot)...]
    let isHost: (Unicode.Scalar) -> Bool = { $0.isASCIIAlphanumeric || $0 == "-" || $0 == "." }
    return !host.isEmpty && host.unicodeScalars.allSatisfy(isHost)
        && (2...64).contains(topLevel.count) && topLevel.unicodeScalars.allSatisfy(\.isASCIILetter)
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIAlphanumeric: Bool { isASCIILetter || ("0"..."9").contains(self) }
}
