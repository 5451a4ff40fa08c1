/// Colours for the readable output: only on a terminal, never with `NO_COLOR` or `--no-color`.
package struct Style: Sendable {
    package let isEnabled: Bool

    package init(isEnabled: Bool) { self.isEnabled = isEnabled }

    package func reply(_ text: String) -> String { paint(text, "32") }
    package func event(_ text: String) -> String { paint(text, "36") }
    package func state(_ text: String) -> String { paint(text, "33") }
    package func error(_ text: String) -> String { paint(text, "31") }
    package func dim(_ text: String) -> String { paint(text, "2") }
    package func added(_ text: String) -> String { paint(text, "32") }
    package func removed(_ text: String) -> String { paint(text, "31") }

    private func paint(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
