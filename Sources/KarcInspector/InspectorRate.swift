import Foundation

/// How many messages a second a session's inspector makes while the
/// session runs faster than a page can show, past a burst of as many
/// (``InspectorBudget``): 1,000 unless `KARC_INSPECT_RATE` says otherwise.
/// A fast machine and browser can show more; a demo on a slow laptop, or a
/// test that must see a script left out, fewer.
package struct InspectorRate: Equatable, Sendable {
    /// The environment variable that sets it.
    package static let variable = "KARC_INSPECT_RATE"
    package static let standard = InspectorRate(perSecond: 1_000)
    /// The most it may be: past it the budget would never hold a script back.
    package static let most = 1_000_000

    package let perSecond: Int

    package init(perSecond: Int) { self.perSecond = perSecond }

    /// The rate `environment` sets, the standard one when it sets none (or sets it empty);
    /// a value that is not a whole number from 1 to ``most`` is an error
    /// that says what was given and what is accepted.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(InspectorRateError) {
        let text = environment[Self.variable] ?? ""
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            self = .standard
            return
        }
        guard let value = Int(trimmed.replacingOccurrences(of: "_", with: "")), (1...Self.most).contains(value) else {
            throw InspectorRateError(text: text)
        }
        self.init(perSecond: value)
    }
}

/// `KARC_INSPECT_RATE` holds what is not a rate.
package struct InspectorRateError: Error, CustomStringConvertible {
    /// What the variable held.
    package let text: String

    package var description: String {
        "\(InspectorRate.variable)=\(text.debugDescription) is not a rate: give how many messages a second the page is sent"
            + " while the session runs faster than it can show, a whole number from 1 to \(InspectorRate.most)"
            + " (unset, it is \(InspectorRate.standard.perSecond))"
    }
}
