import Foundation
import KarcSynchronization

/// A time as `--json` and snapshot files write it: ISO 8601 with milliseconds, in UTC.
package enum JSONTime {
    /// `date` written.
    package static func text(_ date: Date) -> String {
        formatter.withLock { $0.string(from: date) }
    }

    /// A time written by ``text(_:)``; nil when `text` is not one.
    package static func date(from text: String) -> Date? {
        formatter.withLock { $0.date(from: text) }
    }

    /// One formatter for every time written (a `:blame` writes one a change): making one costs more than using it.
    private static let formatter = KarcMutex(
        {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter
        }())
}
