/// How the shell spells and matches names: commands and fields match
/// case-insensitively, and kebab-case (`send-message`) matches camelCase
/// (`sendMessage`).
package enum Names {
    /// A dot-separated path kebab-cased part by part: `logIn.openSignUp` → `log-in.open-sign-up`.
    package static func kebabPath(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false).map { kebab(String($0)) }.joined(separator: ".")
    }

    /// `IncrementByThree` → `increment-by-three`, `userEmail` → `user-email`, `URLPath` → `url-path`.
    package static func kebab(_ name: String) -> String {
        // An enum case's unlabelled values (`_0`, `_1`) keep their names.
        if name.first == "_", name.count > 1, name.dropFirst().allSatisfy(\.isNumber) { return name }
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character == "_" || character == " " {
                if !result.isEmpty, result.last != "-" { result.append("-") }
                continue
            }
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord =
                    previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && next.map(\.isLowercase) == true)
                if startsWord, result.last != "-" { result.append("-") }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }

    /// The form names are compared in: lowercased, without `-` and `_`.
    package static func key(_ name: some StringProtocol) -> String {
        String(name.lowercased().filter { $0 != "-" && $0 != "_" })
    }

    package static func matches(_ typed: some StringProtocol, _ name: String) -> Bool {
        key(typed) == key(name)
    }

    /// Whether `typed` names the type `typeName` (`Articles.Add`), in full or by its last part (`Add`).
    package static func namesType(_ typed: some StringProtocol, _ typeName: String) -> Bool {
        matches(typed, typeName) || typeName.split(separator: ".").last.map { matches(typed, String($0)) } == true
    }

    /// The candidate closest to `typed`, if it is close enough to be a likely typo.
    package static func suggestion(for typed: String, among candidates: [String]) -> String? {
        let target = key(typed)
        let scored = candidates.map { ($0, distance(target, key($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let allowed = max(2, target.count / 3)
        if best.1 <= allowed { return best.0 }
        return candidates.first { key($0).hasPrefix(target) && !target.isEmpty }
    }

    /// `; did you mean 'x'?` when a candidate is close to `typed`, else `.`:
    /// either way the end of a sentence, so a list can follow.
    package static func didYouMean(_ typed: String, among candidates: [String], prefix: String = "") -> String {
        suggestion(for: typed, among: candidates).map { "; did you mean '\(prefix)\($0)'?" } ?? "."
    }

    /// Levenshtein distance, with a transposition counting as one edit.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow = Array(0...b.count)
        var beforePrevious = previousRow
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previousRow
            previousRow = row
        }
        return previousRow[b.count]
    }
}
