/// Colours for the readable output: only on a terminal, never with `NO_COLOR` or `--no-color`.
struct Style: Sendable {
    let isEnabled: Bool

    func reply(_ text: String) -> String { paint(text, "32") }
    func event(_ text: String) -> String { paint(text, "36") }
    func state(_ text: String) -> String { paint(text, "33") }
    func error(_ text: String) -> String { paint(text, "31") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func added(_ text: String) -> String { paint(text, "32") }
    func removed(_ text: String) -> String { paint(text, "31") }

    private func paint(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
