import Foundation

/// A `Date` as custom-dump writes it (`Date(2026-01-02T03:04:05.678Z)`),
/// without its cost.
///
/// custom-dump makes a new `DateFormatter` for every date it writes; on
/// Linux that is tens of microseconds, a sixth of a command's output on a
/// list of to-dos with due dates. This writes the same text from the UTC
/// calendar fields (`gmtime_r`) of the instant rounded to the millisecond
/// as CoreFoundation rounds it for ICU (half a millisecond up, then down).
/// ICU's calendar is Julian before 1582, so dates before 1583 and after
/// 9999 are left to custom-dump; `DateDumpTests` hold the two to each other.
package enum DateDump {
    /// custom-dump's `customDumpDescription` of `date`, or nil when this does not write it.
    package static func text(_ date: Date) -> String? {
        // CFDateFormatterCreateStringWithAbsoluteTime's milliseconds, to the bit.
        let milliseconds = ((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5).rounded(.down)
        // 1583-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.
        guard milliseconds.isFinite, milliseconds >= -12_212_553_600_000, milliseconds <= 253_402_300_799_999 else { return nil }
        let whole = Int64(milliseconds)
        let fraction = Int(((whole % 1000) + 1000) % 1000)
        var seconds = time_t((whole - Int64(fraction)) / 1000)
        var fields = tm()
        guard gmtime_r(&seconds, &fields) != nil else { return nil }
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "Date(" + padded(Int(fields.tm_year) + 1900, 4) + "-" + padded(Int(fields.tm_mon) + 1, 2) + "-" + padded(Int(fields.tm_mday), 2)
            + "T" + padded(Int(fields.tm_hour), 2) + ":" + padded(Int(fields.tm_min), 2) + ":" + padded(Int(fields.tm_sec), 2) + "."
            + padded(fraction, 3) + "Z)"
    }
}
