import Foundation
import KarcLanguage
import KarcSession

/// A value `explore` wrote for a command's field, kept as a value (not only
/// text) so that shrinking can make it simpler: a smaller number, a shorter
/// string, a list with fewer elements.
package indirect enum ExploreValue: Sendable, Equatable {
    case int(Int)
    case decimal(Double)
    case bool(Bool)
    case string(String)
    /// Written as it is: a date, a UUID, a URL, an enum case, an exact decimal.
    case word(String)
    case list([ExploreValue])
    /// A `{json}` object (a dictionary field's keys and values).
    case json(String)
    /// A value an earlier command's reply or state held (an id an `add`
    /// made): replays take it from that command's result again.
    case reference(ExploreReference)

    /// How the command language writes it (docs/shell.md, "Values").
    package var text: String {
        switch self {
        case .int(let value): "\(value)"
        case .decimal(let value): "\(value)"
        case .bool(let value): "\(value)"
        case .string(let value): LineParser.literal(value)
        case .word(let value): value
        case .list(let elements): "[" + elements.map(\.text).joined(separator: ", ") + "]"
        case .json(let value): value
        case .reference(let reference): reference.literal.text
        }
    }

    /// Simpler values to try in its place, simplest first, each once; none
    /// when it is as simple as it gets.
    package var simpler: [ExploreValue] {
        var unique: [ExploreValue] = []
        for candidate in candidates where candidate != self && !unique.contains(candidate) { unique.append(candidate) }
        return unique
    }

    private var candidates: [ExploreValue] {
        switch self {
        case .int(let value):
            guard value != 0 else { return [] }
            var candidates: [ExploreValue] = [.int(0)]
            if value < 0, value != .min { candidates.append(.int(-value)) }
            if value.magnitude > 1 { candidates.append(.int(value / 2)) }
            // One at a time only near zero: a large number steps down by halves (or stays), not a replay a unit.
            if value.magnitude <= 1_000 {
                if value > 1 { candidates.append(.int(value - 1)) } else if value < -1 { candidates.append(.int(value + 1)) }
            }
            return candidates
        case .decimal(let value):
            guard value != 0 else { return [] }
            var candidates: [ExploreValue] = [.decimal(0)]
            if value != value.rounded(.towardZero) { candidates.append(.decimal(value.rounded(.towardZero))) }
            if value < 0 { candidates.append(.decimal(-value)) }
            return candidates
        case .bool(let value):
            return value ? [.bool(false)] : []
        case .string(let value):
            guard !value.isEmpty else { return [] }
            var candidates: [ExploreValue] = [.string("")]
            if value.count > 1 { candidates.append(.string(String(value.prefix(value.count / 2)))) }
            if value.count > 1 { candidates.append(.string(String(value.dropLast()))) }
            if value.contains(where: { !$0.isASCII }) { candidates.append(.string(String(value.filter(\.isASCII)))) }
            return candidates
        case .word, .json, .reference:
            return []
        case .list(let elements):
            guard !elements.isEmpty else { return [] }
            var candidates: [ExploreValue] = [.list([])]
            for index in elements.indices where elements.count > 1 {
                var fewer = elements
                fewer.remove(at: index)
                candidates.append(.list(fewer))
            }
            for (index, element) in elements.enumerated() {
                for simpler in element.simpler {
                    var changed = elements
                    changed[index] = simpler
                    candidates.append(.list(changed))
                }
            }
            return candidates
        }
    }
}

/// Where a reused value came from: which command's result held it, and
/// where in it, counted from the newest (so the item an `add` appended is
/// found again when a replay left out the adds before it).
package struct ExploreReference: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case string, int, uuid
    }

    /// The ``ExploreCommand/id`` of the command whose result held it.
    package var source: Int
    package var kind: Kind
    package var fromEnd: Int
    /// The value as it was last seen.
    package var literal: ExploreValue

    package init(source: Int, kind: Kind, fromEnd: Int, literal: ExploreValue) {
        self.source = source
        self.kind = kind
        self.fromEnd = fromEnd
        self.literal = literal
    }

    /// The value at the same place in `harvest`, the source's result in a replay; nil when there is none.
    func value(in harvest: Harvest) -> ExploreValue? {
        switch kind {
        case .string: harvest.strings.fromEnd(fromEnd).map { .string($0) }
        case .int: harvest.ints.fromEnd(fromEnd).map { .int($0) }
        case .uuid: harvest.uuids.fromEnd(fromEnd).map { .word($0) }
        }
    }
}

extension Array {
    fileprivate func fromEnd(_ offset: Int) -> Element? {
        offset < count ? self[count - 1 - offset] : nil
    }
}

extension ExploreValue {
    /// This value with each reference's literal taken from its source's result in `harvests`.
    func resolved(_ harvests: [Int: Harvest]) -> ExploreValue {
        switch self {
        case .reference(var reference):
            if let harvest = harvests[reference.source], let value = reference.value(in: harvest) { reference.literal = value }
            return .reference(reference)
        case .list(let elements): return .list(elements.map { $0.resolved(harvests) })
        default: return self
        }
    }
}
