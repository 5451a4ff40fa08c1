import Foundation

/// Dates as a person types them: ISO 8601, with or without a time, seconds'
/// fractions and a zone (UTC when none is given).
package enum DateText {
    package static func parse(_ text: String) -> Date? {
        for format in formats {
            if let date = try? Date(text, strategy: format) { return date }
        }
        return nil
    }

    private static let formats: [Date.ISO8601FormatStyle] = [
        .iso8601,
        Date.ISO8601FormatStyle(includingFractionalSeconds: true),
        Date.ISO8601FormatStyle().year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon),
        Date.ISO8601FormatStyle().year().month().day().dateSeparator(.dash),
    ]
}
