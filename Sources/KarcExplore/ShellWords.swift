import Foundation
import KarcSession

/// Words written so that a POSIX shell reads them back as they are: a
/// command line the user copies from the report (`explore-planted --bug
/// interleave 'my failures/x.karc'`).
package enum ShellWords {
    /// `word` as is when the shell takes it so, else in single quotes.
    package static func quote(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./=:,@%+".unicodeScalars.contains(scalar))
            }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `words` quoted, a space apart.
    package static func join(_ words: [String]) -> String {
        words.map(quote).joined(separator: " ")
    }
}
